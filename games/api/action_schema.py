"""The OpenAPI schema of an action body: each game's actions, and the body that takes any of them.

Each game the site offers documents its actions as a ``GameActionsSchema`` (a oneOf keyed by
``type``, ``games.variants.action_schema``) named by its ``Game``. The two games share some
``type`` names with other shapes (Duel's ``buy_card`` may pay with pearls, its cards stop at
66), so the games cannot be merged into one oneOf: the body is :class:`AnyGameAction`, an
``anyOf`` of the games' schemas, which is true of a body such as ``{"type": "pass"}`` that both
games read.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from rest_framework import serializers

from games import variants


class GameActionsScheme(PolymorphicProxySerializerExtension):
    target_class = "games.variants.action_schema.GameActionsSchema"

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        mapped: dict[str, Any] = super().map_serializer(auto_schema, direction)
        return {"description": self.target.description, **mapped}


class AnyGameAction(serializers.Serializer):
    """An action body of any game the site offers: for annotations only."""


class AnyGameActionScheme(OpenApiSerializerExtension):
    """``anyOf`` the action schemas of every game, read from the one registry of games."""

    target_class = "games.api.action_schema.AnyGameAction"

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return "GameAction"

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        games = variants.offered()
        components = [
            auto_schema.resolve_serializer(game.action_schema, direction) for game in games
        ]
        names = " or ".join(
            f"`{component.name}` ({game.title})"
            for game, component in zip(games, components, strict=True)
        )
        return {
            "description": (
                f"One action: {names}, as docs/notation.md writes it. A game takes only its own "
                "actions: a body that is only another game's is refused with 400 "
                "`illegal_action`; a body that is neither is refused with 400 "
                "`validation_error`."
            ),
            "anyOf": [component.ref for component in components],
        }
