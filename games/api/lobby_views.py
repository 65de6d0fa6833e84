"""Before and around play: join, leave, add a bot, start, resign.

Each answers with the game as the caller now sees it, tagged with its new version.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import schema
from games.api.base import GameObjectView
from games.api.game_requests import AddBotSerializer, JoinSerializer
from games.api.game_serializers import GameViewSerializer
from games.api.permissions import CanSeeGame, IsCreatorOrSeated
from games.commands import lobby, play

JOIN_CONFLICT = schema.error(
    "Every seat, or the seat asked for, is taken (code seat_taken; also once the game has "
    "started); you already sit in this game (code already_seated); or the game was called off "
    "(code invalid_request)."
)
BOT_CONFLICT = schema.error(
    "Every seat, or the seat asked for, is taken (code seat_taken), or the game has started "
    "(code invalid_request)."
)


def _lobby_schema(
    operation_id: str,
    summary: str,
    description: str,
    *,
    limited: bool = False,
    conflict: object = schema.CONFLICT,
    **kwargs: object,
) -> object:
    """``limited``: the request can reach one of the account's caps (``games.commands.limits``);
    ``conflict``: what its 409 means."""
    errors = {"status_409": conflict}
    if limited:
        errors["status_429"] = schema.LIMIT_REACHED
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=["lobby"],
        parameters=[schema.etag(200)],
        responses=schema.responses({200: GameViewSerializer}, **errors),
        **kwargs,  # type: ignore[arg-type]
    )


class JoinView(GameObjectView):
    permission_classes = (IsAuthenticated, CanSeeGame)

    @_lobby_schema(
        "games_join",
        "Take a seat",
        "Sit in the given open seat, or the first open one. The game starts once all are filled.",
        request=JoinSerializer,
        limited=True,
        conflict=JOIN_CONFLICT,
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = JoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = lobby.game_take_seat(
            game_id=self.get_game().pk, user=request.user, seat=body.validated_data["seat"]
        )
        return self.render_game(request, game)


class LeaveView(GameObjectView):
    permission_classes = (IsAuthenticated, CanSeeGame)

    @_lobby_schema(
        "games_leave",
        "Give up your seat",
        "Only before the game starts; once it runs, resign instead.",
        request=None,
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = lobby.game_leave_seat(game_id=self.get_game().pk, user=request.user)
        return self.render_game(request, game)


class AddBotView(GameObjectView):
    permission_classes = (IsAuthenticated, CanSeeGame)

    @_lobby_schema(
        "games_add_bot",
        "Put a bot in an open seat",
        "Only the game's creator or a seated player may, before the start.",
        request=AddBotSerializer,
        limited=True,
        conflict=BOT_CONFLICT,
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = AddBotSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = lobby.game_add_bot(
            game_id=self.get_game().pk,
            level=body.validated_data["level"],
            by_user=request.user,
            seat=body.validated_data["seat"],
        )
        return self.render_game(request, game)


class StartView(GameObjectView):
    permission_classes = (IsAuthenticated, CanSeeGame, IsCreatorOrSeated)

    @_lobby_schema(
        "games_start",
        "Start the game",
        "Every seat must be filled. A game whose last seat is taken starts by itself, so this "
        "is rarely needed.",
        request=None,
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = lobby.game_start(game_id=self.get_game().pk, by_user=request.user)
        return self.render_game(request, game)


class ResignView(GameObjectView):
    permission_classes = (IsAuthenticated, CanSeeGame)

    @_lobby_schema(
        "games_resign",
        "Resign",
        "The game ends at once; the best of the other players win.",
        request=None,
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = play.game_resign(game_id=self.get_game().pk, user=request.user)
        return self.render_game(request, game)
