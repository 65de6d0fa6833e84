"""Helpers for the API tests: URLs, acting over HTTP, and what must stay hidden."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.test import APIClient

from games.models import Game, GameEvent
from games.reads import loading


def game_url(game: Game | int, suffix: str = "") -> str:
    game_id = game if isinstance(game, int) else game.pk
    return f"/api/v1/games/{game_id}/{suffix}"


def post_action(
    client: APIClient,
    game: Game | int,
    action: Mapping[str, Any],
    *,
    version: int | None,
    idempotency_key: str | None = None,
) -> Any:
    headers: dict[str, str] = {}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return client.post(game_url(game, "actions/"), action, format="json", headers=headers)


def footprint(game: Game | int) -> tuple[int, int]:
    """(version, number of events): what a refused request must leave as it was."""
    game_id = game if isinstance(game, int) else game.pk
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    return version, GameEvent.objects.filter(game_id=game_id).count()


def error_code(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    code: str = body["error"]["code"]
    return code


def secret_cards_for(game: Game, seat: int | None) -> set[int]:
    """The cards ``seat`` (None: a spectator) must not see now: decks and others' blind cards."""
    state = loading.game_state(game)
    if state is None:
        return set()
    hidden = {card for deck in state.decks for card in deck}
    for index, player in enumerate(state.players):
        if index != seat:
            hidden |= set(player.blind)
    return hidden
