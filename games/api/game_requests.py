"""Request serializers for games: a new game, a seat, a bot, and the queries of the lists.

They are strict: an unknown field, a wrong type or a value out of range is refused with the
field's name, and nothing is changed.
"""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games import engine
from games.commands.lobby import MOVE_SECONDS_CHOICES
from games.variants.json_fields import (
    StrictBooleanField,
    StrictIntegerField,
    StrictSerializer,
    TaggedUnionField,
)
from games.vocabulary import BotLevel, Status

MAX_GAMES_PER_PAGE = 100
MAX_EVENTS_PER_PAGE = 500
DEFAULT_EVENTS_PER_PAGE = 100
LARGEST_SEQ = 2**31 - 1


@extend_schema_field({"type": "integer", "enum": [*MOVE_SECONDS_CHOICES, None], "nullable": True})
class MoveSecondsField(StrictIntegerField):
    """A time per move: the schema lists the choices, so clients (and fuzzers) know them."""


class NewUserSeatSerializer(StrictSerializer):
    """You take this seat."""

    type = serializers.ChoiceField(choices=["user"])


class NewOpenSeatSerializer(StrictSerializer):
    """A seat anyone may take from the lobby."""

    type = serializers.ChoiceField(choices=["open"])


class NewBotSeatSerializer(StrictSerializer):
    """A seat the server's bot of ``level`` plays."""

    type = serializers.ChoiceField(choices=["bot"])
    level = serializers.ChoiceField(choices=BotLevel.choices)


NEW_SEATS: dict[str, type[StrictSerializer]] = {
    "user": NewUserSeatSerializer,
    "open": NewOpenSeatSerializer,
    "bot": NewBotSeatSerializer,
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="NewSeat", serializers=NEW_SEATS, resource_type_field_name="type"
    )
)
class NewSeatField(TaggedUnionField):
    variants = NEW_SEATS


class NoOptionsSerializer(StrictSerializer):
    """The options of a variant; the base game has none, so this is always ``{}``."""


class GameCreateSerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS), default="splendor")
    seats = serializers.ListField(
        child=NewSeatField(),
        min_length=2,
        max_length=4,
        help_text=(
            "In seat order. At most one `user` seat: you. A second one is refused with 409 "
            "(invalid_request), as joining a game you sit in is (already_seated): no schema can "
            "count them."
        ),
    )
    is_public = StrictBooleanField(
        default=True, help_text="Public games are listed in the lobby and open to spectators."
    )
    options = NoOptionsSerializer(
        required=False, default=dict, help_text="Variant options; the base game has none: {}."
    )
    move_seconds = MoveSecondsField(
        allow_null=True,
        required=False,
        default=None,
        help_text="Time per move: 3600 (an hour), 86400 (a day), 259200 (three days) or null "
        "(none). A move not made in time is played by the Greedy bot.",
    )

    def validate_move_seconds(self, value: int | None) -> int | None:
        if value is not None and value not in MOVE_SECONDS_CHOICES:
            raise serializers.ValidationError(
                "The time per move is 3600, 86400, 259200 (seconds) or null."
            )
        return value


def _open_seat_field(help_text: str) -> StrictIntegerField:
    """A seat index that may be left out (or null): the first open seat."""
    return StrictIntegerField(
        min_value=0, max_value=3, required=False, allow_null=True, default=None, help_text=help_text
    )


class JoinSerializer(StrictSerializer):
    seat = _open_seat_field("The seat to take; the first open one if left out.")


class AddBotSerializer(StrictSerializer):
    level = serializers.ChoiceField(choices=BotLevel.choices)
    seat = _open_seat_field("The seat to fill; the first open one if left out.")


class GameListFilterSerializer(StrictSerializer):
    status = serializers.ChoiceField(choices=Status.choices, required=False)
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS), required=False)
    mine = serializers.BooleanField(
        required=False, default=False, help_text="Only games you created or have a seat in."
    )
    my_turn = serializers.BooleanField(
        required=False, default=False, help_text="Only running games that wait for you."
    )
    limit = serializers.IntegerField(
        min_value=1, max_value=MAX_GAMES_PER_PAGE, default=20, help_text="Games per page."
    )


class GameListQuerySerializer(GameListFilterSerializer):
    """The filters plus the page's cursor, which is left out of the schema on purpose.

    A cursor is opaque and signed by the server: only the ones in `next` and `previous` are
    valid, and no schema can describe them, so clients follow those links instead of building
    the parameter (and a schema-valid cursor the server refuses would be a contradiction).
    """

    cursor = serializers.CharField(required=False)


class EventPageQuerySerializer(StrictSerializer):
    after = serializers.IntegerField(
        min_value=0,
        max_value=LARGEST_SEQ,
        default=0,
        help_text="Return the events after this seq: the `cursor` of the previous page.",
    )
    limit = serializers.IntegerField(
        min_value=1, max_value=MAX_EVENTS_PER_PAGE, default=DEFAULT_EVENTS_PER_PAGE
    )
