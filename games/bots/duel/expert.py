"""The Expert bot of Splendor Duel: the lookahead of the search bot, judged by a value network.

The search bot (``games.bots.duel.search``) plays each candidate a few turns ahead with the
greedy policy and scores where that leads; the Expert scores it with the learned network
(``games.bots.learning``, positions read by ``games.bots.duel.features`` from the searching
seat's knowledge) instead of the hand-set evaluation. The network's chance is put on the
evaluation's own scale of points, so that greedy's prior (in points) weighs the same in both:
``evaluation.POINTS_PER_LOG_ODDS``. At 3 points a unit the network's differences between
candidates were a quarter of their worth beside greedy's prior, and its Expert scored 0.38
against the search bot over 100 games; at 12, 0.58 over 60.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from games.bots.duel import search
from games.bots.duel.evaluation import POINTS_PER_LOG_ODDS, position_value
from games.bots.duel.features import seat_rows
from games.bots.learning.network import ValueNetwork
from games.engine import Action
from games.engine.duel.scoring import outcome
from games.engine.duel.state import GAME_OVER, DuelState

_SURE = 1e-6

EXPERT_LOOKAHEAD = search.DEFAULT_LOOKAHEAD
"""The search bot's: a shallower lookahead or one that tries the opponent's best answers won
no more games with the network judging (docs/decisions/0145-the-experts-network.md)."""


def choose(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    network: ValueNetwork,
    budget_seconds: float | None = None,
    iterations: int | None = None,
) -> Action:
    """The Expert's action for the seat to act in ``view``; the budget as the search bot's
    (its time is always this thread's CPU time, as the search bot's). A provisional network
    judges nothing: the hand-set evaluation does, and the Expert plays as the search bot."""
    observer = int(view["viewer"])
    if network.provisional:
        return search.choose(view, rng, budget_seconds=budget_seconds, iterations=iterations)

    def value(state: DuelState, seat: int) -> float:
        return learned_value(network, state, seat, observer)

    return search.choose(
        view,
        rng,
        budget_seconds=budget_seconds,
        iterations=iterations,
        value=value,
        lookahead=EXPERT_LOOKAHEAD,
    )


def learned_value(network: ValueNetwork, state: DuelState, seat: int, observer: int) -> float:
    """The seat's chance to win by the network, in points of log-odds; a finished game ±WIN."""
    if state.phase == GAME_OVER:
        return position_value(state, seat)
    chance = min(1.0 - _SURE, max(_SURE, learned_chance(network, state, seat, observer)))
    return POINTS_PER_LOG_ODDS * math.log(chance / (1.0 - chance))


def learned_chance(network: ValueNetwork, state: DuelState, seat: int, observer: int) -> float:
    """The seat's chance to win by the network, reading ``state`` with what ``observer`` knows;
    a finished game's result (1 a win, 0 a loss, a share of a shared win)."""
    if state.phase == GAME_OVER:
        result = outcome(state)
        assert result is not None
        return 1.0 / len(result.winners) if seat in result.winners else 0.0
    return network.chances(seat_rows(state, observer))[seat]
