"""The base of every endpoint about one game: load it, then check the caller may see it."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors
from games.api.concurrency import with_etag
from games.api.permissions import CanSeeGame
from games.models import Game


class GameObjectView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly, CanSeeGame)

    def get_game(self) -> Game:
        game = selectors.game_get(self.kwargs["game_id"])
        self.check_object_permissions(self.request, game)
        return game

    def render_game(self, request: Request, game: Game, **response_options: Any) -> Response:
        """The game as the caller sees it, tagged with its version."""
        view = selectors.game_view_for_viewer(game, request.user)
        return with_etag(Response(view, **response_options), view["version"])
