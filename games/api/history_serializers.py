"""Serializers of the history endpoints: list filters, rows, replay steps, documents, forks."""

from __future__ import annotations

from rest_framework import serializers

from games import engine
from games.api.game_requests import NewSeatField
from games.api.game_serializers import (
    EventSerializer,
    GameResultSerializer,
    OriginSerializer,
    RecordedResultSerializer,
    SeatViewSerializer,
    StateViewField,
)
from games.notation import document as notation
from games.reads.game_lists import OPPONENTS
from games.variants.json_fields import StrictBooleanField, StrictIntegerField, StrictSerializer
from games.vocabulary import BotLevel, Status

MAX_HISTORY_PER_PAGE = 100
USERNAME_PATTERN = r"^[\w.@+-]+$"


class HistoryQuerySerializer(StrictSerializer):
    scope = serializers.ChoiceField(
        choices=["mine", "public"],
        default="public",
        help_text="`mine`: every game you sat in (sign in). `public`: finished public games.",
    )
    # The characters a username may have (Django's username validator): the schema states
    # them, so a name no account can have is refused as the schema says, not as a surprise.
    player = serializers.RegexField(
        USERNAME_PATTERN,
        required=False,
        max_length=150,
        help_text="Public scope only: games this username sat in.",
    )
    status = serializers.ChoiceField(choices=Status.choices, required=False)
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS), required=False)
    players = serializers.IntegerField(min_value=2, max_value=4, required=False)
    opponent = serializers.ChoiceField(
        choices=list(OPPONENTS), required=False, help_text="A human, or a bot of this level."
    )
    since = serializers.DateField(required=False, help_text="Created on or after this day.")
    until = serializers.DateField(required=False, help_text="Created on or before this day.")
    page = serializers.IntegerField(min_value=1, default=1)
    limit = serializers.IntegerField(min_value=1, max_value=MAX_HISTORY_PER_PAGE, default=20)


class HistoryRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS))
    variant_name = serializers.CharField()
    status = serializers.ChoiceField(choices=Status.choices)
    is_public = serializers.BooleanField()
    origin = OriginSerializer(
        allow_null=True, help_text="Set for imported and forked games: statistics skip them."
    )
    players = serializers.ListField(child=serializers.CharField())
    seats = SeatViewSerializer(many=True)
    my_seat = serializers.IntegerField(allow_null=True)
    my_result = serializers.ChoiceField(
        choices=["", "won", "lost", "shared", "resigned", "aborted"],
        help_text="From the side of the list's player; empty while running or without a seat.",
    )
    my_score = serializers.IntegerField(allow_null=True)
    winner_score = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(child=serializers.CharField())
    result = GameResultSerializer(
        allow_null=True, help_text="As in a game's: who won, how, and the split of points."
    )
    ending = serializers.CharField(
        help_text='The result in a few words: "Won by alice — 10 crowns"; empty until the '
        "game is finished."
    )
    rounds = serializers.IntegerField(allow_null=True)
    date = serializers.DateTimeField()


class HistoryPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HistoryRowSerializer(many=True)


class ReplayQuerySerializer(StrictSerializer):
    step = serializers.IntegerField(min_value=0, default=0, help_text="0 is the deal.")


class ReplayEventSerializer(EventSerializer):
    consequences = serializers.ListField(
        child=serializers.DictField(),
        help_text="What the event brought about by itself, e.g. a noble's automatic visit.",
    )
    text = serializers.CharField(help_text="The event in words.")


class ReplayStepSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS))
    status = serializers.ChoiceField(choices=Status.choices)
    step = serializers.IntegerField(min_value=0)
    last_step = serializers.IntegerField(min_value=0)
    viewer_seat = serializers.IntegerField(allow_null=True)
    seats = SeatViewSerializer(many=True)
    acting_seat = serializers.IntegerField(allow_null=True)
    event = ReplayEventSerializer(help_text="The event that led to this step.")
    text = serializers.CharField()
    state = StateViewField(help_text="The board at this step, as you may see it.")
    revealed = serializers.BooleanField(help_text="True once the game is over: all is shown.")


class DocumentSeatSerializer(serializers.Serializer):
    name = serializers.CharField()
    bot_level = serializers.ChoiceField(choices=BotLevel.choices, allow_null=True)


class GameDocumentSerializer(serializers.Serializer):
    """A game in the notation of docs/notation.md: the setup and every move."""

    format = serializers.ChoiceField(choices=[notation.FORMAT])
    variant = serializers.ChoiceField(choices=list(engine.VARIANTS))
    game = serializers.IntegerField(required=False)
    status = serializers.ChoiceField(choices=Status.choices, required=False)
    origin = OriginSerializer(allow_null=True, required=False)
    seats = DocumentSeatSerializer(many=True)
    setup = serializers.DictField(
        allow_null=True, help_text="Seed and deck order: null in a running game's staff export."
    )
    salt = serializers.CharField(allow_null=True, required=False)
    commitment = serializers.CharField(allow_null=True, required=False)
    moves = serializers.ListField(
        child=serializers.DictField(),
        help_text='`{"seat": 0, "action": {...}}` or `{"seat": 1, "resign": true}`.',
    )
    result = RecordedResultSerializer(allow_null=True, required=False)
    started_at = serializers.DateTimeField(allow_null=True, required=False)
    finished_at = serializers.DateTimeField(allow_null=True, required=False)


class ForkSerializer(StrictSerializer):
    step = StrictIntegerField(min_value=0, help_text="The step to start from.")
    seats = serializers.ListField(
        child=NewSeatField(),
        min_length=2,
        max_length=4,
        help_text=(
            "As many as the position's players, in seat order. At most one `user`: you. "
            "A second one, or a number of seats the position does not have, is refused with "
            "409 (invalid_request): no schema can count them."
        ),
    )
    is_public = StrictBooleanField(default=True)


class BulkExportQuerySerializer(StrictSerializer):
    finished_since = serializers.DateTimeField(
        required=False, help_text="Only games finished at or after this moment (ISO 8601)."
    )
