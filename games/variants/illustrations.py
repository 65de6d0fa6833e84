"""Example positions drawn as the table draws them, for a game's "How to play" page.

A picture on that page is a position the engine built (its own state, its own moves applied),
handed to the game's own table presenter as one player at the table would see it: the same
regions, cards and panels as a running game's page, so the pictures cannot drift from the table.
No picture offers a move: the presenter is given no legal action, so it draws no control.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games import engine

NAMES = ("Ada", "Ben")
"""The two players of every example: seat 0 and seat 1."""


def regions(
    table: Callable[..., dict[str, dict[str, Any]]],
    state: engine.State,
    *,
    seat: int | None = 0,
    names: Sequence[str] = NAMES,
) -> dict[str, dict[str, Any]]:
    """The table's regions of ``state`` as ``seat`` sees it (None: a spectator), without any
    control: what they hold, what they could afford, and nothing to click."""
    is_over = engine.outcome(state) is not None
    data = {
        "id": 0,
        "variant": engine.variant_of(state),
        # "active" lets a seated viewer see which cards they can afford, as at the table.
        "status": "finished" if is_over else "active",
        "version": 0,
        "viewer_seat": seat,
        "acting_seat": engine.acting_seat(state),
        "seats": [
            {"index": index, "display_name": name, "bot_level": None}
            for index, name in enumerate(names)
        ],
        "state": engine.view(state, seat, reveal=is_over),
        "legal_actions": [],
    }
    return table(data, [])


def only_seat(drawn: Mapping[str, dict[str, Any]], seat: int) -> dict[str, Any]:
    """The players region of ``drawn`` with one player's panel alone."""
    players = drawn["players"]
    return {**players, "players": [item for item in players["players"] if item["seat"] == seat]}


def play(state: engine.State, *actions: Mapping[str, Any]) -> engine.State:
    """``state`` after ``actions``, each checked by the engine as a posted move is."""
    variant = engine.variant_of(state)
    for action in actions:
        state = engine.apply_action(state, engine.action_from_json(dict(action), variant))
    return state
