"""Games: the list (with filters), creation, one game, its event history and its export."""

from __future__ import annotations

from base64 import b64decode, b64encode
from urllib import parse

from django.core import signing
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from games.api import schema
from games.api.base import GameObjectView
from games.api.concurrency import is_unchanged_for, with_etag
from games.api.game_requests import (
    MAX_GAMES_PER_PAGE,
    EventPageQuerySerializer,
    GameCreateSerializer,
    GameListFilterSerializer,
    GameListQuerySerializer,
)
from games.api.game_serializers import (
    EventPageSerializer,
    GameExportSerializer,
    GameSummaryPageSerializer,
    GameViewSerializer,
)
from games.commands import lobby
from games.commands.lobby import BotSeat, OpenSeat, SeatRequest, UserSeat
from games.reads import exports, game_lists, game_view
from games.variants.json_fields import single_query_values

EXPORT_FORMAT = "splendor-online/game-export/1"


class GamePagination(CursorPagination):
    """DRF's cursor pagination, with cursors signed by the server.

    A cursor carries a position that goes straight into the query: unsigned, any well-formed
    one (``p=abc``) reached the database and failed there. Signed, a cursor the server did not
    issue (forged, edited, or from before a change of SECRET_KEY) is a bad request, 400.
    """

    ordering = ("-created_at", "-id")
    page_size = 20
    page_size_query_param = "limit"
    max_page_size = MAX_GAMES_PER_PAGE
    cursor_salt = "games.api.game-list-cursor"

    def encode_cursor(self, cursor: Cursor) -> str:
        tokens = {}
        if cursor.offset:
            tokens["o"] = str(cursor.offset)
        if cursor.reverse:
            tokens["r"] = "1"
        if cursor.position is not None:
            tokens["p"] = cursor.position
        encoded = b64encode(parse.urlencode(tokens).encode("ascii")).decode("ascii")
        assert self.base_url is not None
        signed = self._signer().sign(encoded)
        return replace_query_param(self.base_url, self.cursor_query_param, signed)

    def decode_cursor(self, request: Request) -> Cursor | None:
        signed = request.query_params.get(self.cursor_query_param)
        if signed is None:
            return None
        try:
            encoded = self._signer().unsign(signed)
            querystring = b64decode(encoded.encode("ascii")).decode("ascii")
            tokens = parse.parse_qs(querystring, keep_blank_values=True)
            offset = int(tokens.get("o", ["0"])[0])
            reverse = tokens.get("r", ["0"])[0] == "1"
            position = tokens.get("p", [None])[0]
        except (signing.BadSignature, TypeError, ValueError):
            # A cursor is a query parameter like any other: a bad one is a bad request.
            raise exceptions.ValidationError({"cursor": [self.invalid_cursor_message]}) from None
        return Cursor(offset=offset, reverse=reverse, position=position)

    def _signer(self) -> signing.Signer:
        return signing.Signer(salt=self.cursor_salt)


class GameListView(APIView):
    pagination_class = GamePagination

    @extend_schema(
        operation_id="games_list",
        summary="List the games you may see",
        description=(
            "Public games and your own, newest first, in pages: follow the links in `next` and "
            "`previous` (their `cursor` is signed by the server; one it did not issue is 400). "
            "`mine` and `my_turn` need you to be signed in."
        ),
        tags=["games"],
        parameters=[GameListFilterSerializer],
        responses=schema.responses({200: GameSummaryPageSerializer}),
    )
    def get(self, request: Request) -> Response:
        filters = GameListQuerySerializer(data=single_query_values(request))
        filters.is_valid(raise_exception=True)
        wanted = dict(filters.validated_data)
        for paging in ("limit", "cursor"):
            wanted.pop(paging, None)  # read by the paginator
        if (wanted["mine"] or wanted["my_turn"]) and not request.user.is_authenticated:
            raise exceptions.NotAuthenticated("Sign in to list your own games.")
        games = game_lists.game_list_for_viewer(request.user, **wanted)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(game_lists.game_summaries(page, request.user))

    @extend_schema(
        operation_id="games_create",
        summary="Create a game",
        description=(
            "Seats are taken in order: `user` is you, `open` waits for a player to join, "
            "`bot` is played by the server. A game whose seats are all filled starts at once. "
            "Each account has caps (settings `GAMES_MAX_*`): games waiting or in progress, games "
            "between bots only, games created per hour; past one, 429 with code `limit_reached`."
        ),
        tags=["games"],
        request=GameCreateSerializer,
        responses=schema.responses(
            {201: GameViewSerializer},
            status_409=schema.error("You asked for more than one seat (code invalid_request)."),
            status_429=schema.LIMIT_REACHED,
        ),
        parameters=[schema.etag(201)],
    )
    def post(self, request: Request) -> Response:
        body = GameCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        seats = [seat_request(seat, request) for seat in body.validated_data["seats"]]
        game = lobby.game_create(
            variant=body.validated_data["variant"],
            seats=seats,
            created_by=request.user,
            options=body.validated_data["options"],
            is_public=body.validated_data["is_public"],
            move_seconds=body.validated_data["move_seconds"],
        )
        view = game_view.game_view_for_viewer(game, request.user)
        location = reverse("api:game-detail", kwargs={"game_id": game.pk})
        response = Response(view, status=status.HTTP_201_CREATED, headers={"Location": location})
        return with_etag(response, view["version"])


class GameDetailView(GameObjectView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="One game, as you may see it",
        description=(
            "Your seat's view: your own hand in full, other players' blind reserves hidden, no "
            "deck order. Send `If-None-Match` with the ETag you hold to poll cheaply."
        ),
        tags=["games"],
        parameters=[schema.IF_NONE_MATCH, schema.etag(200, 304)],
        responses=schema.responses(
            {
                200: GameViewSerializer,
                304: OpenApiResponse(description="Unchanged since the ETag you sent."),
            }
        ),
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.get_game()
        if is_unchanged_for(request, game.version):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), game.version)
        return self.render_game(request, game)


class GameEventsView(GameObjectView):
    @extend_schema(
        operation_id="games_events_list",
        summary="The game's event history, as you may see it",
        description=(
            "Events in order of `seq`, after the `after` cursor. To follow a game, poll `next`: "
            "it always points after the last event returned. While the game runs, the setup "
            "(seed, deck order) and salt are left out of GameStarted."
        ),
        tags=["history"],
        parameters=[EventPageQuerySerializer],
        responses=schema.responses({200: EventPageSerializer}),
    )
    def get(self, request: Request, game_id: int) -> Response:
        query = EventPageQuerySerializer(data=single_query_values(request))
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        game = self.get_game()
        events = game_view.game_events_for_viewer(
            game, request.user, after_seq=after, limit=limit + 1
        )
        page = events[:limit]
        cursor = page[-1]["seq"] if page else after
        next_url = replace_query_param(request.build_absolute_uri(), "after", cursor)
        return Response(
            {
                "events": page,
                "cursor": cursor,
                "has_more": len(events) > limit,
                "next": next_url,
            }
        )


class GameExportView(GameObjectView):
    @extend_schema(
        operation_id="games_export",
        summary="Export a finished game",
        description=(
            "The whole event log and the revealed setup (seed, deck order, salt) of a finished "
            "or aborted game, so anyone can replay it and check the shuffle against the "
            "commitment published at the start. `origin` marks an imported or forked game. "
            "While the game runs: 409 (game_not_over), as for every export; staff get it "
            "without the setup."
        ),
        tags=["history"],
        responses=schema.responses(
            {200: GameExportSerializer},
            status_409=schema.NOT_OVER,
        ),
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = exports.exportable_game(game_id, request.user)
        return Response(
            {
                "format": EXPORT_FORMAT,
                "origin": game.origin,
                "game": game_view.game_view_for_viewer(game, request.user),
                "events": game_view.game_events_for_viewer(game, request.user),
            }
        )


def seat_request(seat: dict[str, str], request: Request) -> SeatRequest:
    """A seat of a game to create, as the API's body asks for it: the caller, a bot or open."""
    if seat["type"] == "user":
        return UserSeat(request.user)
    if seat["type"] == "bot":
        return BotSeat(seat["level"])
    return OpenSeat()
