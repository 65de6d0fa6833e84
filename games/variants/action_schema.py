"""How a game's API actions are documented: one schema per game, a oneOf keyed by ``type``.

Each game's package builds its :class:`GameActionsSchema` from its action serializers
(``games.variants.<game>.api_actions``) and names it in its ``Game``; the API's schema
extensions (``games.api.action_schema``) describe it in OpenAPI and join every game's into the
body an action endpoint takes. The class lives here, below the API, so that a game package
imports only downward.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer


class GameActionsSchema(PolymorphicProxySerializer):
    """One game's actions, keyed by ``type``, with a description that names the game."""

    def __init__(
        self, *, component_name: str, serializers: Any, description: str, **kwargs: Any
    ) -> None:
        self.description = description
        super().__init__(
            component_name=component_name,
            serializers=serializers,
            resource_type_field_name="type",
            **kwargs,
        )
