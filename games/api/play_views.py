"""Playing: the caller's legal actions, and submitting one action."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games import variants
from games.api import schema
from games.api.action_schema import AnyGameAction
from games.api.base import GameObjectView
from games.api.concurrency import expected_version_from, idempotency_key_from, with_etag
from games.api.game_serializers import ActionAcceptedSerializer, LegalActionsSerializer
from games.api.permissions import CanSeeGame
from games.api.schema import RequiredBodySchema
from games.api.throttling import ActionRateThrottle
from games.commands import play
from games.errors import GameError
from games.reads import access, game_view, loading


class LegalActionsView(GameObjectView):
    @extend_schema(
        operation_id="games_legal_actions",
        summary="Your legal actions",
        description=(
            "Every action you may submit now, in the JSON of docs/notation.md; empty when the "
            "game does not wait for you. `version` is what to send in If-Match."
        ),
        tags=["play"],
        parameters=[schema.etag(200)],
        responses=schema.responses({200: LegalActionsSerializer}),
    )
    def get(self, request: Request, game_id: int) -> Response:
        # The caller's seat comes with the game row: one query for both.
        game = loading.game_get_with_viewer_seat(game_id, request.user)
        self.check_object_permissions(request, game)
        actions = game_view.game_legal_actions_for_viewer(game, request.user)
        # Actions are only ever legal for the seat to act: look the seat up only without any.
        viewer_seat = game.acting_seat if actions else access.seat_for_viewer(game, request.user)
        data = {
            "game_id": game.pk,
            "version": game.version,
            "viewer_seat": viewer_seat,
            "acting_seat": game.acting_seat,
            "actions": actions,
        }
        return with_etag(Response(data), game.version)


class ActionView(GameObjectView):
    permission_classes = (IsAuthenticated, CanSeeGame)
    throttle_classes = (ActionRateThrottle,)
    throttle_scope = "actions"
    # A StaleVersion here means the If-Match precondition failed: 412, not 409.
    version_from_if_match = True

    @extend_schema(
        operation_id="games_actions_create",
        summary="Submit an action",
        description=(
            "One action in the JSON of docs/notation.md, for your seat, at the version named "
            "in If-Match. The answer lists the events it appended and the new version."
        ),
        tags=["play"],
        request=AnyGameAction,
        parameters=[schema.IF_MATCH, schema.IDEMPOTENCY_KEY, schema.etag(200, 412)],
        responses=schema.responses(
            {200: ActionAcceptedSerializer},
            status_400=schema.error(
                "Malformed action (validation_error), or an action the rules forbid or of "
                "the other game (illegal_action, with the engine's reason)."
            ),
            status_403=schema.error("You have no seat in this game, or it is not your turn."),
            status_409=schema.CONFLICT,
            status_412=schema.error(
                "If-Match names an old version: `details.current_version` is the game's."
            ),
            status_422=schema.error("This Idempotency-Key was used with a different request."),
            status_428=schema.error("If-Match is missing."),
            status_429=schema.THROTTLED,
        ),
    )
    def post(self, request: Request, game_id: int) -> Response:
        expected_version = expected_version_from(request)
        idempotency_key = idempotency_key_from(request)
        action = variants.parse_api_action(request.data, lambda: loading.game_variant(game_id))
        try:
            result = play.game_take_action(
                game_id=game_id,
                action=action,
                expected_version=expected_version,
                user=request.user,
                idempotency_key=idempotency_key,
            )
        except GameError:
            # Only a seated player's action can succeed, so the game's visibility is checked on
            # refusals alone (saving a read on the hot path): a private game of others is
            # "not found" whatever else was wrong. Header and body checks above come first
            # for every game id alike, so they reveal nothing either.
            self.get_game()
            raise
        return with_etag(Response(result.to_json()), result.version)

    # Below the handler: in the class body, ``schema`` names the module until this line.
    schema = RequiredBodySchema()
