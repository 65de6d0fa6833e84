"""The action JSON of docs/notation.md as DRF serializers: shape checks at the HTTP edge.

These check only the shape (types, known fields, ranges of ids) and document it in the schema;
whether an action is legal is for the engine, through ``games.commands.play.game_take_action``.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.engine.splendor import gems
from games.variants.action_schema import GameActionsSchema
from games.variants.json_fields import StrictIntegerField, StrictSerializer, validate_tagged

# The base game's colour names, in the engine's order: the engine is their one home.
GEM_COLOURS = tuple(gems.COLOUR_NAMES[colour] for colour in gems.GEM_COLOURS)
TOKEN_COLOURS = gems.COLOUR_NAMES
CARD_IDS = (0, 89)
NOBLE_IDS = (0, 9)
DECK_LEVELS = (1, 3)


def _count_field() -> StrictIntegerField:
    return StrictIntegerField(min_value=0, max_value=99, required=False)


class TokenCountsSerializer(StrictSerializer):
    """Token counts by colour; colours with none may be left out (`{"red": 2, "gold": 1}`)."""

    white = _count_field()
    blue = _count_field()
    green = _count_field()
    red = _count_field()
    black = _count_field()
    gold = _count_field()


def _type_field(name: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[name])


def _id_field(bounds: tuple[int, int], help_text: str) -> StrictIntegerField:
    low, high = bounds
    return StrictIntegerField(min_value=low, max_value=high, help_text=help_text)


class TakeGemsActionSerializer(StrictSerializer):
    """Three different colours, or the same colour twice for "two of a colour"."""

    type = _type_field("take_gems")
    gems = serializers.ListField(
        child=serializers.ChoiceField(choices=GEM_COLOURS), min_length=1, max_length=3
    )


class ReserveCardActionSerializer(StrictSerializer):
    """Reserve a face-up card (a gold comes with it if any is left)."""

    type = _type_field("reserve_card")
    card = _id_field(CARD_IDS, "A face-up card's id.")


class ReserveFromDeckActionSerializer(StrictSerializer):
    """Reserve the top card of a deck, unseen by the others."""

    type = _type_field("reserve_from_deck")
    level = _id_field(DECK_LEVELS, "The deck's level.")


class BuyCardActionSerializer(StrictSerializer):
    """Buy a face-up card or one of your reserved cards; ``payment`` is optional."""

    type = _type_field("buy_card")
    card = _id_field(CARD_IDS, "A face-up card's id, or one of your reserved cards.")
    payment = TokenCountsSerializer(
        required=False,
        help_text="Exactly what to hand over; without it coloured tokens go first, then gold.",
    )


class ReturnTokensActionSerializer(StrictSerializer):
    """Give back exactly the tokens above ten."""

    type = _type_field("return_tokens")
    tokens = TokenCountsSerializer()


class ChooseNobleActionSerializer(StrictSerializer):
    """Choose which of the qualifying nobles visits you."""

    type = _type_field("choose_noble")
    noble = _id_field(NOBLE_IDS, "One of the view's pending_nobles.")


class PassActionSerializer(StrictSerializer):
    """Only when no other action is legal."""

    type = _type_field("pass")


ACTION_SERIALIZERS: dict[str, type[StrictSerializer]] = {
    "take_gems": TakeGemsActionSerializer,
    "reserve_card": ReserveCardActionSerializer,
    "reserve_from_deck": ReserveFromDeckActionSerializer,
    "buy_card": BuyCardActionSerializer,
    "return_tokens": ReturnTokensActionSerializer,
    "choose_noble": ChooseNobleActionSerializer,
    "pass": PassActionSerializer,
}

ACTION_SCHEMA = GameActionsSchema(
    component_name="Action",
    serializers=ACTION_SERIALIZERS,
    description=(
        'An action of Splendor, the base game (variant "splendor"), keyed by `type` '
        '(docs/notation.md, "Actions").'
    ),
)
"""The schema of one action (a oneOf keyed by ``type``), for annotations only."""


def parse_action(data: Any) -> dict[str, Any]:
    """The action in ``data`` as plain JSON, its shape checked; raises ``ValidationError``."""
    action: dict[str, Any] = validate_tagged(data, ACTION_SERIALIZERS)
    return action
