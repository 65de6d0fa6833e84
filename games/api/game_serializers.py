"""Response serializers for games (the requests' are ``games.api.game_requests``).

Responses are built by the selectors as plain JSON and returned as they are; the response
serializers here describe that JSON for the OpenAPI schema (and the schema tests check that
every response matches them).
"""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games import engine
from games.variants import offered
from games.variants.splendor.api_actions import GEM_COLOURS, TokenCountsSerializer
from games.vocabulary import BotLevel, EventKind, Status

PHASES = ("main", "return_tokens", "choose_noble", "game_over")


@extend_schema_field(
    {
        "type": "object",
        "properties": {"type": {"type": "string"}},
        "required": ["type"],
        "description": (
            "One action in the notation of the game's variant (docs/notation.md): for Splendor, "
            "the `ActionRequest` schema; for Splendor Duel, the `DuelActionRequest` schema."
        ),
    }
)
class ActionField(serializers.JSONField):
    """One action in the JSON of docs/notation.md, of whichever game the answer is about."""


# --- The engine's view of a game --------------------------------------------------------------


class CardSerializer(serializers.Serializer):
    id = serializers.IntegerField(min_value=0, max_value=89)
    level = serializers.IntegerField(min_value=1, max_value=3)
    colour = serializers.ChoiceField(choices=GEM_COLOURS, help_text="The card's bonus.")
    points = serializers.IntegerField(min_value=0)
    cost = TokenCountsSerializer()


class HiddenCardSerializer(serializers.Serializer):
    """A card another player reserved unseen from a deck: only its level shows."""

    hidden = serializers.BooleanField()
    level = serializers.IntegerField(min_value=1, max_value=3)


RESERVED_CARD_SCHEMA = PolymorphicProxySerializer(
    component_name="ReservedCard",
    serializers=[CardSerializer, HiddenCardSerializer],
    resource_type_field_name=None,
)


@extend_schema_field(RESERVED_CARD_SCHEMA)
class ReservedCardField(serializers.JSONField):
    """A reserved card: in full, or hidden when another player took it unseen."""


class NobleSerializer(serializers.Serializer):
    id = serializers.IntegerField(min_value=0, max_value=9)
    points = serializers.IntegerField(min_value=0)
    requires = TokenCountsSerializer()


class PlayerViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    tokens = TokenCountsSerializer()
    token_count = serializers.IntegerField(min_value=0)
    bonuses = TokenCountsSerializer()
    points = serializers.IntegerField(min_value=0)
    cards = CardSerializer(many=True)
    reserved = serializers.ListField(child=ReservedCardField())
    nobles = NobleSerializer(many=True)


class OutcomeSerializer(serializers.Serializer):
    points = serializers.ListField(child=serializers.IntegerField())
    cards_bought = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField())
    decided_by = serializers.ChoiceField(choices=["points", "fewest_cards", "shared"])
    ended_by = serializers.ChoiceField(choices=["reached_points", "all_passed"])


@extend_schema_field(CardSerializer(allow_null=True))
class BoardSlotField(serializers.JSONField):
    """A face-up card, or null where the deck ran out."""


class StateViewSerializer(serializers.Serializer):
    """The engine's ``view`` for one seat (or a spectator): docs/notation.md, "View"."""

    variant = serializers.ChoiceField(choices=list(engine.VARIANTS))
    viewer = serializers.IntegerField(allow_null=True, help_text="The seat this view is for.")
    phase = serializers.ChoiceField(choices=PHASES)
    current = serializers.IntegerField(help_text="The seat to act.")
    turn = serializers.IntegerField()
    round = serializers.IntegerField()
    supply = TokenCountsSerializer()
    decks = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text="Cards left in each level's deck."
    )
    board = serializers.ListField(
        child=serializers.ListField(child=BoardSlotField()),
        help_text="Four slots a level; null where the deck ran out.",
    )
    nobles = NobleSerializer(many=True)
    players = PlayerViewSerializer(many=True)
    pending_nobles = NobleSerializer(many=True)
    tokens_to_return = serializers.IntegerField(min_value=0)
    outcome = OutcomeSerializer(allow_null=True)


# --- Games ------------------------------------------------------------------------------------


class SeatViewSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0)
    display_name = serializers.CharField(allow_blank=True)
    user_id = serializers.IntegerField(allow_null=True)
    bot_level = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)
    is_open = serializers.BooleanField()
    is_away = serializers.BooleanField(
        help_text="The player ran out of time twice in a row: the Greedy bot plays this seat "
        "until they take it back."
    )


WAYS_TO_WIN = tuple(dict.fromkeys(way for game in offered() for way in game.ending.every_way))
"""Every ``won_by`` of every game, each once (docs/decisions/0133-the-result-everywhere.md)."""


class ScoreSplitSerializer(serializers.Serializer):
    """One seat's final points, split by where they came from."""

    seat = serializers.IntegerField(min_value=0)
    cards = serializers.IntegerField(min_value=0, help_text="Points on the cards bought.")
    nobles = serializers.IntegerField(
        min_value=0, required=False, help_text="Splendor: points from nobles' visits."
    )
    royals = serializers.IntegerField(
        min_value=0, required=False, help_text="Splendor Duel: points from royal cards."
    )
    total = serializers.IntegerField(min_value=0)


class RecordedResultSerializer(serializers.Serializer):
    """How a game ended as its log records it: winners and scores, or that it was aborted."""

    winners = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="The winning seats."
    )
    points = serializers.ListField(child=serializers.IntegerField(), required=False)
    cards_bought = serializers.ListField(child=serializers.IntegerField(), required=False)
    decided_by = serializers.CharField(required=False)
    ended_by = serializers.CharField(required=False)
    resigned = serializers.ListField(child=serializers.IntegerField(), required=False)
    aborted = serializers.BooleanField(required=False)
    reason = serializers.CharField(
        required=False, allow_blank=True, help_text="Aborted games: why it was called off."
    )


class GameResultSerializer(RecordedResultSerializer):
    """How a game ended: winners, how they won and the split of points, or that it was aborted."""

    won_by = serializers.ChoiceField(
        choices=list(WAYS_TO_WIN),
        required=False,
        help_text="Finished games: how the winners won. Splendor: `points` (the most), "
        "`fewest_cards` (tied on points, fewest cards bought), `shared` (tied on both). "
        "Splendor Duel: `points` (20), `crowns` (10), `colour_points` (10 on cards of one "
        "colour, named in `colour`), `shared` (neither player could move). Both: "
        "`resignation`. A time-out never ends a game: see `timed_out`.",
    )
    colour = serializers.CharField(
        required=False, help_text="Splendor Duel, `won_by` `colour_points`: the colour."
    )
    scores = ScoreSplitSerializer(
        many=True,
        required=False,
        help_text="Finished games: each seat's points from cards, from nobles (Splendor) or "
        "royals (Splendor Duel), and the total.",
    )
    timed_out = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Finished games: the seats whose player had run out of time and was not "
        "back when the game ended (the Greedy bot played their turns).",
    )


class RevealedSerializer(serializers.Serializer):
    """Everything that was hidden, once the game is over: check ``commitment`` against it."""

    setup = serializers.JSONField(allow_null=True, help_text="Seed and deck order.")
    salt = serializers.CharField(allow_null=True)
    commitment = serializers.CharField(allow_null=True)
    final_state = serializers.JSONField(help_text="The full final state (docs/notation.md).")


DUEL_VARIANT = ["duel"]


class DuelStateViewSerializer(serializers.Serializer):
    """A Splendor Duel view: its fields are in docs/notation.md, section Splendor Duel."""

    variant = serializers.ChoiceField(choices=DUEL_VARIANT)


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="GameStateView",
        serializers=[StateViewSerializer, DuelStateViewSerializer],
        resource_type_field_name=None,
    )
)
class StateViewField(serializers.JSONField):
    """The game as a viewer may see it, in its variant's notation: the engine's ``view``."""


class GameViewSerializer(serializers.Serializer):
    """A game as the caller may see it; ``legal_actions`` is filled when it waits for them."""

    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS))
    status = serializers.ChoiceField(choices=Status.choices)
    version = serializers.IntegerField(help_text="Send it back in If-Match to act.")
    is_public = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    seats = SeatViewSerializer(many=True)
    viewer_seat = serializers.IntegerField(allow_null=True)
    acting_seat = serializers.IntegerField(allow_null=True)
    commitment = serializers.CharField(
        allow_null=True, help_text="SHA-256 of setup and salt, published at the start."
    )
    result = GameResultSerializer(allow_null=True)
    move_seconds = serializers.IntegerField(
        allow_null=True, help_text="Time per move in seconds; null: no deadlines."
    )
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the acting player's move is due, if ever."
    )
    state = StateViewField(allow_null=True, help_text="Null until the game starts.")
    legal_actions = serializers.ListField(child=ActionField())
    revealed = RevealedSerializer(required=False, help_text="Only once the game is over.")


class GameSummarySerializer(serializers.Serializer):
    """A game in a list: no board, no hands."""

    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS))
    status = serializers.ChoiceField(choices=Status.choices)
    version = serializers.IntegerField()
    is_public = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    acting_seat = serializers.IntegerField(allow_null=True)
    viewer_seat = serializers.IntegerField(allow_null=True)
    is_my_turn = serializers.BooleanField()
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the move of the seat to act is due (running games)."
    )
    last_move_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the last move was made: the turn's start while it runs, else its end.",
    )
    result = GameResultSerializer(allow_null=True)


class GameSummaryPageSerializer(serializers.Serializer):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class LegalActionsSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The version these actions are legal at.")
    viewer_seat = serializers.IntegerField(allow_null=True)
    acting_seat = serializers.IntegerField(allow_null=True)
    actions = serializers.ListField(
        child=ActionField(), help_text="Empty unless the game waits for you."
    )


class ActionAcceptedSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The game's version after the action.")
    events = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seqs of the events it appended."
    )
    acting_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat the game now waits for; null once it is over."
    )
    actions = serializers.ListField(
        child=ActionField(),
        help_text=(
            "Your legal actions at the new version when the game still waits for you "
            "(returning tokens, choosing a noble), else empty: no need to GET them again."
        ),
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=EventKind.choices)
    seat = serializers.IntegerField(allow_null=True)
    payload = serializers.DictField(
        help_text="Depends on kind; GameStarted holds the setup and salt only once it is over."
    )
    created_at = serializers.DateTimeField()


class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    cursor = serializers.IntegerField(
        help_text="The seq of the last event returned (or `after` if none): poll with it."
    )
    has_more = serializers.BooleanField(help_text="More events follow right now.")
    next = serializers.URLField(help_text="The URL to fetch (or poll) for the next events.")


ORIGIN_KINDS = ("import", "fork")


class OriginSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(ORIGIN_KINDS))
    game = serializers.IntegerField(required=False, help_text="fork: the game it came from.")
    step = serializers.IntegerField(required=False, help_text="fork: the step it came from.")


class GameExportSerializer(serializers.Serializer):
    """A finished or aborted game, everything revealed: replay it and check the shuffle."""

    format = serializers.CharField()
    origin = OriginSerializer(
        allow_null=True,
        help_text="Set for imported and forked games. An imported game was not played here: "
        "its seats' names are the file's text, none of them an account.",
    )
    game = GameViewSerializer()
    events = EventSerializer(many=True)
