"""Object-level permissions: who may see a game, who may run its lobby, who may mint tokens."""

from __future__ import annotations

from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from games.errors import GameNotFound
from games.models import Game
from games.reads import access


class CanSeeGame(BasePermission):
    """Public games are open to all; a private game of others does not exist for the caller.

    Refused with 404 rather than 403, so that the answer does not reveal that it exists.
    """

    def has_object_permission(self, request: Request, view: APIView, obj: Game) -> bool:
        if not access.can_view(obj, request.user):
            raise GameNotFound(f"There is no game {obj.pk}.")
        return True


class IsCreatorOrSeated(BasePermission):
    message = "Only the game's creator or one of its players can do this."

    def has_object_permission(self, request: Request, view: APIView, obj: Game) -> bool:
        if obj.created_by_id is not None and obj.created_by_id == request.user.pk:
            return True
        return access.seat_for_viewer(obj, request.user) is not None


class TokensAreCreatedBySession(BasePermission):
    """A token cannot mint tokens: revoking a leaked token must be enough to lock it out."""

    message = "Create API tokens from a signed-in session (the profile page), not with a token."

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return isinstance(request.successful_authenticator, SessionAuthentication)
