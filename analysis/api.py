"""The analysis under /api/v1/games/{id}/analysis/: ask for it (POST) and read it (GET).

POST is idempotent: the same game at the same analysis version and settings answers the analysis
already asked for, 200 once done and 202 while it is queued or running, each with its Location;
only a new analysis counts against the account's hourly cap (429, code limit_reached). One that
stalled (no word from its worker for ``ANALYSIS_STALLED_AFTER_SECONDS``) is restarted by a POST,
free. A game that is not finished is a 409 (game_not_over) for both.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import selectors, services
from analysis.models import AnalysisStatus
from games.api import schema
from games.errors import GameNotFound


class JudgedMoveSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="The replay step this move makes.")
    mover = serializers.IntegerField(help_text="The seat that moved.")
    before = serializers.FloatField(
        help_text="The mover's chance to win at the position, with the move the analysis prefers."
    )
    after = serializers.FloatField(help_text="The mover's chance to win after the move made.")
    drop = serializers.FloatField(help_text="before − after, at least 0.")
    mark = serializers.ChoiceField(
        choices=["inaccuracy", "mistake", "blunder"],
        allow_null=True,
        help_text="By the drop: at least 0.08 an inaccuracy, 0.15 a mistake, 0.25 a blunder.",
    )
    played = serializers.JSONField(help_text="The move made, as an action (docs/notation.md).")
    played_text = serializers.CharField()
    preferred = serializers.JSONField(
        allow_null=True,
        help_text="The move the analysis prefers, as an action; null when it is the move made.",
    )
    preferred_text = serializers.CharField(help_text="The preferred move in words, or empty.")


class AnalysisSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=AnalysisStatus.values)
    version = serializers.IntegerField(help_text="The analysis's version: its method.")
    budget = serializers.DictField(
        help_text=(
            "Per position: `iterations` of the search (base game) or `samples` (Duel); "
            "`network`: the fingerprint of the Expert's network that judged, if one did."
        )
    )
    steps_done = serializers.IntegerField(help_text="Moves judged so far.")
    steps_total = serializers.IntegerField(help_text="Moves to judge (0 until it starts).")
    stalled = serializers.BooleanField(
        help_text=(
            "Queued or running, but nothing heard from its worker for a while (the worker "
            "died): a POST restarts it."
        )
    )
    worker_seconds = serializers.FloatField(
        allow_null=True, help_text="The CPU time the analysis took, once done."
    )
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    steps = JudgedMoveSerializer(many=True, help_text="Every move judged, once done; else empty.")


NOT_FINISHED = schema.error(
    "The game is not finished (code game_not_over): no analysis while it can be played."
)


class AnalysisView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        operation_id="games_analysis_read",
        summary="The analysis of a finished game, move by move",
        description=(
            "Each move judged from its mover's view only (the cards they could not see dealt "
            "at random, as the search bot does): their chance to win with the best move and "
            "after theirs, the move preferred and a mark. 404 until one is requested."
        ),
        tags=["analysis"],
        responses=schema.responses({200: AnalysisSerializer}, status_409=NOT_FINISHED),
    )
    def get(self, request: Request, game_id: int) -> Response:
        _game, analysis = selectors.analysis_for_viewer(game_id, request.user)
        if analysis is None:
            raise GameNotFound(
                f"Game {game_id} has no analysis yet: POST to this address to request one."
            )
        return Response(selectors.analysis_json(analysis))

    @extend_schema(
        operation_id="games_analysis_request",
        summary="Request the analysis of a finished game",
        description=(
            "Queues an analysis (202, Location: where to read it). Asking again for the same "
            "analysis is no new request: 202 while it runs, 200 once done; one that stalled "
            "(its worker died) starts over. New analyses per account and hour are capped "
            "(429, code limit_reached)."
        ),
        tags=["analysis"],
        request=None,
        responses=schema.responses(
            {200: AnalysisSerializer, 202: AnalysisSerializer},
            status_409=NOT_FINISHED,
            status_429=schema.error(
                "Too many analyses requested in the last hour (code limit_reached)."
            ),
        ),
    )
    def post(self, request: Request, game_id: int) -> Response:
        analysis, _created = services.request_analysis(game_id, request.user)
        analysis.refresh_from_db()  # an embedded worker may have finished it already
        done = analysis.status == AnalysisStatus.DONE
        response = Response(
            selectors.analysis_json(analysis),
            status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED,
        )
        response["Location"] = reverse("api:game-analysis", args=[game_id])
        return response
