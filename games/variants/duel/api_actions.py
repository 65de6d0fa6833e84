"""Splendor Duel's action JSON (docs/notation.md, "Splendor Duel"): its reader, and DRF
serializers for the OpenAPI schema only.

The API reads a Duel action with the engine's own reader (:func:`parse_action`); these
serializers say the same thing to a bot writer, and tests/duel/test_duel_action_schema.py holds
the two together: every action the engine lists as legal fits the schema, and bodies the schema
refuses, the reader refuses too. The bounds come from the engine, their one home.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games import engine
from games.engine.duel.board import MAX_LINE, SIZE, SPACES
from games.engine.duel.catalogue import CARDS, ROYALS
from games.engine.duel.tokens import COLOUR_NAMES, COST_COLOURS, GEM_COLOURS
from games.variants.action_schema import GameActionsSchema
from games.variants.json_fields import StrictIntegerField, StrictSerializer

VARIANT = "duel"

DUEL_GEM_COLOURS = tuple(COLOUR_NAMES[colour] for colour in GEM_COLOURS)
DUEL_STEALABLE_COLOURS = tuple(COLOUR_NAMES[colour] for colour in COST_COLOURS)
"""What the "Take" ability can take: a gem or a pearl, never gold."""
DUEL_CARD_IDS = (0, len(CARDS) - 1)
DUEL_ROYAL_IDS = (0, len(ROYALS) - 1)
DUEL_DECK_LEVELS = (1, 3)
MAX_TOKEN_COUNT = SPACES
"""No count can exceed the game's 25 tokens; the reader refuses more as malformed."""


def _count_field() -> StrictIntegerField:
    return StrictIntegerField(min_value=0, max_value=MAX_TOKEN_COUNT, required=False)


class DuelTokenCountsSerializer(StrictSerializer):
    """Token counts by colour, pearl included; colours with none may be left out."""

    white = _count_field()
    blue = _count_field()
    green = _count_field()
    red = _count_field()
    black = _count_field()
    pearl = _count_field()
    gold = _count_field()


class SpaceField(serializers.ListField):
    """A board space, ``[row, column]``, each from 0 (row 0 at the top)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "A board space, [row, column]; row 0 is the top.")
        super().__init__(
            child=StrictIntegerField(min_value=0, max_value=SIZE - 1),
            min_length=2,
            max_length=2,
            **kwargs,
        )


def _type_field(name: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[name])


def _id_field(bounds: tuple[int, int], help_text: str) -> StrictIntegerField:
    low, high = bounds
    return StrictIntegerField(min_value=low, max_value=high, help_text=help_text)


class DuelUsePrivilegeActionSerializer(StrictSerializer):
    """Optional, first: return a privilege to take the gem or pearl token on ``space``."""

    type = _type_field("use_privilege")
    space = SpaceField()


class DuelReplenishActionSerializer(StrictSerializer):
    """Optional, second: lay the bag out on the board; the opponent takes a privilege."""

    type = _type_field("replenish")


class DuelTakeTokensActionSerializer(StrictSerializer):
    """Take adjacent gem or pearl tokens in one row, column or diagonal, in any order."""

    type = _type_field("take_tokens")
    spaces = serializers.ListField(
        child=SpaceField(), min_length=1, max_length=MAX_LINE, help_text="[row, column] pairs."
    )


class DuelTakeGoldActionSerializer(StrictSerializer):
    """Take the gold token on ``space``; the card to reserve is chosen next."""

    type = _type_field("take_gold")
    space = SpaceField()


class DuelReserveCardActionSerializer(StrictSerializer):
    """After ``take_gold``: reserve a card of the pyramid."""

    type = _type_field("reserve_card")
    card = _id_field(DUEL_CARD_IDS, "A card of the pyramid.")


class DuelReserveFromDeckActionSerializer(StrictSerializer):
    """After ``take_gold``: reserve a deck's top card, unseen by the opponent."""

    type = _type_field("reserve_from_deck")
    level = _id_field(DUEL_DECK_LEVELS, "The deck's level.")


class DuelBuyCardActionSerializer(StrictSerializer):
    """Buy a card of the pyramid or of your reserve; ``payment`` is optional."""

    type = _type_field("buy_card")
    card = _id_field(DUEL_CARD_IDS, "A card of the pyramid, or one of your reserved cards.")
    payment = DuelTokenCountsSerializer(
        required=False,
        help_text=(
            "Exactly what to hand over, gold standing in for any gem or pearl; without it gems "
            "and pearls go first, then gold."
        ),
    )


class DuelChooseJokerColourActionSerializer(StrictSerializer):
    """The colour a joker just bought joins."""

    type = _type_field("choose_joker_colour")
    colour = serializers.ChoiceField(choices=DUEL_GEM_COLOURS)


class DuelTakeMatchingTokenActionSerializer(StrictSerializer):
    """The "Gem" ability: the token of the bought card's colour to take."""

    type = _type_field("take_matching_token")
    space = SpaceField()


class DuelStealTokenActionSerializer(StrictSerializer):
    """The "Take" ability: the colour of the token to take from the opponent."""

    type = _type_field("steal_token")
    colour = serializers.ChoiceField(choices=DUEL_STEALABLE_COLOURS)


class DuelChooseRoyalActionSerializer(StrictSerializer):
    """The royal card for a third or sixth crown."""

    type = _type_field("choose_royal")
    royal = _id_field(DUEL_ROYAL_IDS, "A royal card still on offer.")


class DuelDiscardTokensActionSerializer(StrictSerializer):
    """Put exactly the tokens above ten back in the bag."""

    type = _type_field("discard_tokens")
    tokens = DuelTokenCountsSerializer()


class DuelPassActionSerializer(StrictSerializer):
    """Only when nothing else is possible."""

    type = _type_field("pass")


DUEL_ACTION_SERIALIZERS: dict[str, type[StrictSerializer]] = {
    "use_privilege": DuelUsePrivilegeActionSerializer,
    "replenish": DuelReplenishActionSerializer,
    "take_tokens": DuelTakeTokensActionSerializer,
    "take_gold": DuelTakeGoldActionSerializer,
    "reserve_card": DuelReserveCardActionSerializer,
    "reserve_from_deck": DuelReserveFromDeckActionSerializer,
    "buy_card": DuelBuyCardActionSerializer,
    "choose_joker_colour": DuelChooseJokerColourActionSerializer,
    "take_matching_token": DuelTakeMatchingTokenActionSerializer,
    "steal_token": DuelStealTokenActionSerializer,
    "choose_royal": DuelChooseRoyalActionSerializer,
    "discard_tokens": DuelDiscardTokensActionSerializer,
    "pass": DuelPassActionSerializer,
}

DUEL_ACTION_SCHEMA = GameActionsSchema(
    component_name="DuelAction",
    serializers=DUEL_ACTION_SERIALIZERS,
    description=(
        'An action of Splendor Duel (variant "duel"), keyed by `type` (docs/notation.md, '
        '"Splendor Duel"). `buy_card`, `reserve_card`, `reserve_from_deck` and `pass` share '
        "their names with the base game's actions but not their bounds: Duel has cards 0 to 66 "
        "and pearls."
    ),
)
"""The schema of one Duel action (a oneOf keyed by ``type``), for annotations only."""


def parse_action(data: Any) -> dict[str, Any]:
    """The action in ``data``, its shape checked by the engine's reader; ``ValidationError``."""
    try:
        return engine.action_to_json(engine.action_from_json(data, VARIANT))
    except engine.MalformedJSON as error:
        raise serializers.ValidationError({"action": [str(error)]}) from None
