"""The base of every endpoint about one game: load it, then check the caller may see it.

A signed-in caller who read or changed the game is present in it for ``API_PRESENCE_SECONDS``
(``games.commands.presence``, kept by the notifications app): a bot playing through the API gets
no turn mail while it plays.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.concurrency import with_etag
from games.api.permissions import CanSeeGame
from games.commands.presence import note_player_seen
from games.models import Game
from games.reads import game_view, loading


class GameObjectView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly, CanSeeGame)

    def get_game(self) -> Game:
        game = loading.game_get(self.kwargs["game_id"])
        self.check_object_permissions(self.request, game)
        return game

    def render_game(self, request: Request, game: Game, **response_options: Any) -> Response:
        """The game as the caller sees it, tagged with its version."""
        view = game_view.game_view_for_viewer(game, request.user)
        return with_etag(Response(view, **response_options), view["version"])

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        user = getattr(request, "user", None)
        is_answered = 200 <= response.status_code < 400  # 304 included: the caller looked
        if is_answered and user is not None and user.is_authenticated and "game_id" in kwargs:
            note_player_seen(
                user_id=user.pk, game_id=kwargs["game_id"], seconds=settings.API_PRESENCE_SECONDS
            )
        return super().finalize_response(request, response, *args, **kwargs)
