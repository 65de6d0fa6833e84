"""The history endpoints: lists of past games, replay steps, exports, import and fork."""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import HttpResponse, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, renderers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from games.api import schema
from games.api.base import GameObjectView
from games.api.concurrency import with_etag
from games.api.game_serializers import GameViewSerializer
from games.api.game_views import seat_request
from games.api.history_serializers import (
    BulkExportQuerySerializer,
    ForkSerializer,
    GameDocumentSerializer,
    HistoryPageSerializer,
    HistoryQuerySerializer,
    ReplayQuerySerializer,
    ReplayStepSerializer,
)
from games.api.parsers import GameFileParser
from games.commands import history as history_services
from games.errors import GameNotFound
from games.notation import game_files
from games.reads import exports, game_lists, game_view, timeline
from games.variants.json_fields import single_query_values


def _with_errors(ok: tuple[int, str], response: OpenApiResponse) -> dict[Any, Any]:
    """A non-JSON success plus the usual JSON errors, each keyed by (status, media type)."""
    errors = {(code, "application/json"): value for code, value in schema.COMMON_ERRORS.items()}
    return {ok: response, **errors}


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"
    default_detail = "A game file is at most 5 MB."


class HistoryListView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="history_list",
        summary="Past games: yours, or the public finished ones",
        description=(
            "Newest first, in numbered pages. Each row gives, from your side (`scope=mine`) or "
            "the `player`'s, the result (won, lost, shared, resigned, aborted), the score and "
            "the winner's, and the length in rounds. Imported and forked games carry `origin`."
        ),
        tags=["history"],
        parameters=[HistoryQuerySerializer],
        responses=schema.responses({200: HistoryPageSerializer}),
    )
    def get(self, request: Request) -> Response:
        query = HistoryQuerySerializer(data=single_query_values(request))
        query.is_valid(raise_exception=True)
        wanted = query.validated_data
        filters = game_lists.HistoryFilters(
            status=wanted.get("status", ""),
            variant=wanted.get("variant", ""),
            players=wanted.get("players"),
            opponent=wanted.get("opponent", ""),
            since=wanted.get("since"),
            until=wanted.get("until"),
        )
        side: Any = None
        if wanted["scope"] == "mine":
            if not request.user.is_authenticated:
                raise exceptions.NotAuthenticated("Sign in to list your own games.")
            games = game_lists.my_games(request.user, filters)
            side = request.user
        elif "player" in wanted:
            side = get_user_model().objects.filter(username=wanted["player"]).first()
            if side is None:
                raise GameNotFound(f"There is no player {wanted['player']}.")
            games = game_lists.finished_public_games(filters, player=side)
        else:
            games = game_lists.finished_public_games(filters)
        paginator = Paginator(games, wanted["limit"])
        number = wanted["page"]
        if number > max(paginator.num_pages, 1):
            raise GameNotFound("There is no such page of games.")
        page = paginator.page(number)
        url = request.build_absolute_uri()
        return Response(
            {
                "count": paginator.count,
                "page": number,
                "pages": max(1, math.ceil(paginator.count / wanted["limit"])),
                "next": replace_query_param(url, "page", number + 1) if page.has_next() else None,
                "previous": (
                    replace_query_param(url, "page", number - 1)
                    if number > 2
                    else remove_query_param(url, "page")
                )
                if page.has_previous()
                else None,
                "results": game_lists.history_rows(page.object_list, side),
            }
        )


class ReplayView(GameObjectView):
    @extend_schema(
        operation_id="games_replay",
        summary="The board at one step",
        description=(
            "Step 0 is the deal; step N the game after the N-th event that followed it. While "
            "the game runs you see each step as your seat (or a spectator) saw it then; once it "
            "is over, everything. A step past the end is a 404 (not_found) whose message names "
            "the game's last step."
        ),
        tags=["history"],
        parameters=[ReplayQuerySerializer],
        responses=schema.responses({200: ReplayStepSerializer}),
    )
    def get(self, request: Request, game_id: int) -> Response:
        query = ReplayQuerySerializer(data=single_query_values(request))
        query.is_valid(raise_exception=True)
        game = self.get_game()
        data = timeline.replay_step_for_viewer(game, request.user, query.validated_data["step"])
        return Response(data)


class NotationExportView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="games_export_notation",
        summary="Download a game in the notation (setup + moves)",
        description=(
            "Enough to replay the game with the engine (docs/notation.md) or to import it again. "
            "`origin` marks an imported or forked game. A running game is a 409 (game_not_over) "
            "for everyone but staff, who get it without the setup, as for every export."
        ),
        tags=["history"],
        responses=schema.responses({200: GameDocumentSerializer}, status_409=schema.NOT_OVER),
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = exports.exportable_game(game_id, request.user)
        return Response(exports.game_document_for_viewer(game, request.user))


class FileDownloadView(APIView):
    """An endpoint whose answer is a file, not JSON: any Accept is fine, errors stay JSON.

    The file is returned as a Django response of its own type; DRF's negotiation would refuse
    a client that accepts only that type, so every refusal is rendered in the one JSON shape.
    """

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        renderer = renderers.JSONRenderer()
        return renderer, renderer.media_type


class TextExportView(FileDownloadView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="games_export_text",
        summary="Download a game as a readable log",
        description=(
            "Every step in words, as the History page and the replay viewer tell it; an "
            "imported game says so in its header. A running game is a 409 (game_not_over) as "
            "for every export."
        ),
        tags=["history"],
        responses={
            **_with_errors(
                (200, "text/plain"), OpenApiResponse(OpenApiTypes.STR, description="The log.")
            ),
            (409, "application/json"): schema.NOT_OVER,
        },
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        game = exports.exportable_game(game_id, request.user)
        text = exports.game_text_for_viewer(game, request.user)
        return HttpResponse(text, content_type="text/plain; charset=utf-8")


class BulkExportView(FileDownloadView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="games_bulk_export",
        summary="Every finished public game, as gzipped JSON Lines",
        description=(
            "One game per line in the notation of `games_export_notation`, streamed: the open "
            "database of every game played here. Imported and forked games carry `origin`."
        ),
        tags=["history"],
        parameters=[BulkExportQuerySerializer],
        responses=_with_errors(
            (200, "application/gzip"), OpenApiResponse(OpenApiTypes.BINARY, description="The file.")
        ),
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        query = BulkExportQuerySerializer(data=single_query_values(request))
        query.is_valid(raise_exception=True)
        games = exports.bulk_export_games(finished_since=query.validated_data.get("finished_since"))
        response = StreamingHttpResponse(games, content_type="application/gzip")
        response["Content-Disposition"] = 'attachment; filename="splendor-games.jsonl.gz"'
        return response


class ImportView(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (GameFileParser,)
    # A game file, not a command: read up to its own limit (splendor_site.middleware).
    max_body_bytes = game_files.MAX_FILE_BYTES
    invalid_request_status = status.HTTP_400_BAD_REQUEST

    @extend_schema(
        operation_id="games_import",
        summary="Import a finished game",
        description=(
            "The body is a game in the notation (as `games_export_notation` gives it), at most "
            "5 MB. It is replayed through the engine; if any step fails, or the result differs, "
            "it is refused (400, code import_rejected) naming the first bad step, and nothing "
            "is stored. The same limits hold as for the site's upload form: at most 5 MB, "
            "arrays and objects at most 32 deep, at most 5000 moves. An import counts against "
            "your hourly cap on new games (429, limit_reached). The new game is marked "
            "`origin: {kind: import}`; its seats are the file's names, none of them an account."
        ),
        tags=["history"],
        request=GameDocumentSerializer,
        responses=schema.responses(
            {201: GameViewSerializer},
            status_413=schema.error("The body is over 5 MB."),
            status_429=schema.LIMIT_REACHED,
        ),
    )
    def post(self, request: Request) -> Response:
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not length.isdigit() or int(length) > game_files.MAX_FILE_BYTES:
            raise PayloadTooLarge()
        game = history_services.game_import(document=request.data, uploaded_by=request.user)
        view = game_view.game_view_for_viewer(game, request.user)
        location = reverse("api:game-detail", kwargs={"game_id": game.pk})
        response = Response(view, status=status.HTTP_201_CREATED, headers={"Location": location})
        return with_etag(response, view["version"])


class ForkView(GameObjectView):
    # Its refusals (seats that do not fit the position, a player taking two) depend on the game
    # forked from, which no schema can state: 409, as for creating a game (games.api.errors).
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="games_fork",
        summary="Start a new game from a step of this one",
        description=(
            "Any step of a finished game, or of a running game you watch (not one you play). "
            "The new game starts from exactly that position; the cards nobody could see then "
            "are reshuffled from a new seed. It is marked `origin: {kind: fork, game, step}`."
        ),
        tags=["history"],
        request=ForkSerializer,
        responses=schema.responses(
            {201: GameViewSerializer},
            status_409=schema.error(
                "The seats do not fit the position (its player count, at most one of them you) "
                "(code invalid_request)."
            ),
        ),
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = ForkSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fork = history_services.game_fork(
            game_id=game_id,
            step=body.validated_data["step"],
            user=request.user,
            seats=[seat_request(seat, request) for seat in body.validated_data["seats"]],
            is_public=body.validated_data["is_public"],
        )
        view = game_view.game_view_for_viewer(fork, request.user)
        location = reverse("api:game-detail", kwargs={"game_id": fork.pk})
        response = Response(view, status=status.HTTP_201_CREATED, headers={"Location": location})
        return with_etag(response, view["version"])
