"""One game between bots, recorded for training: every position as its mover saw it, and who won.

The same loop plays a gate's match games, which record nothing. Each seat's bot is given only
its own view, as in a real game; the n-th choice of a game of seed ``seed`` gets the bot seed
``seed * 1000 + n``, so a game is reproducible from its seed and its bots' iteration budgets.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import games.engine as engine
from games.engine import Action, State

Player = Callable[[dict[str, Any], int], Action]
"""A bot at a seat: ``(its view, a seed) -> its action``."""
Encoder = Callable[[Any, int], list[list[float]]]
"""A game's ``seat_rows``: ``(state, observer) -> one row of features per seat``."""

MAX_ACTIONS = 400
"""Every bot level makes progress within this many actions (docs/decisions/0141); a game still
running then is recorded as shared by everyone."""


@dataclass(frozen=True)
class PlayedGame:
    results: tuple[float, ...]
    """Each seat's share of the win."""
    actions: int
    rows: np.ndarray
    """Positions × seats × features: each decision's position seen by its mover (empty when
    nothing was recorded)."""

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        np.savez_compressed(buffer, rows=self.rows.astype(np.float32), results=self.results)
        return buffer.getvalue()


def from_bytes(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """A stored game's rows and results."""
    with np.load(io.BytesIO(data), allow_pickle=False) as stored:
        return np.asarray(stored["rows"], dtype=np.float64), np.asarray(stored["results"])


def play(
    variant: str,
    players: Sequence[Player],
    seed: int,
    encode: Encoder | None = None,
) -> PlayedGame:
    """Play one game of ``len(players)`` seats, ``players[i]`` at seat ``i``; with ``encode``,
    record every position before its mover chooses."""
    state: State = engine.initial_state(engine.new_game(variant, len(players), seed))
    recorded: list[list[list[float]]] = []
    actions = 0
    while engine.outcome(state) is None and actions < MAX_ACTIONS:
        seat = state.current
        if encode is not None:
            recorded.append(encode(state, seat))
        action = players[seat](engine.view(state, seat), seed * 1000 + actions)
        state = engine.apply_action(state, action)
        actions += 1
    result = engine.outcome(state)
    seats = len(players)
    if result is None:
        results = tuple(1.0 / seats for _ in range(seats))
    else:
        share = 1.0 / len(result.winners)
        results = tuple(share if seat in result.winners else 0.0 for seat in range(seats))
    rows = np.asarray(recorded, dtype=np.float64) if recorded else np.zeros((0, seats, 0))
    return PlayedGame(results, actions, rows)


def stack(
    games: Sequence[tuple[np.ndarray, np.ndarray]], max_seats: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stored games as the training arrays of ``games.bots.learning.fit``: rows, seated,
    results (each padded to ``max_seats``) and each position's game index."""
    all_rows, all_seated, all_results, all_games = [], [], [], []
    for index, (rows, results) in enumerate(games):
        if len(rows) == 0:
            continue
        positions, seats, features = rows.shape
        padded = np.zeros((positions, max_seats, features))
        padded[:, :seats] = rows
        seated = np.zeros((positions, max_seats), dtype=bool)
        seated[:, :seats] = True
        shares = np.zeros((positions, max_seats))
        shares[:, :seats] = results
        all_rows.append(padded)
        all_seated.append(seated)
        all_results.append(shares)
        all_games.append(np.full(positions, index))
    return (
        np.concatenate(all_rows),
        np.concatenate(all_seated),
        np.concatenate(all_results),
        np.concatenate(all_games),
    )
