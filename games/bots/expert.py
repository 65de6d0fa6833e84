"""The Expert bot of the base game: the search bot with a learned evaluation.

The search (``games.bots.search``) is unchanged but for its playouts' end: the value network of
``games.bots.learning`` judges the position there, from the searching seat's knowledge
(``games.bots.features``), instead of the hand-set weights. The playouts keep the search bot's
horizon of three rounds: at equal iterations, shorter playouts judged by the network won fewer
games than the full ones (docs/decisions/0145-the-experts-network.md).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.bots import search
from games.bots.learning.network import ValueNetwork
from games.engine import Action

EXPERT_SETTINGS = search.SearchSettings()


def choose(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    network: ValueNetwork,
    budget_seconds: float | None = None,
    iterations: int | None = None,
    cpu_time: bool = False,
) -> Action:
    """The Expert's action for the seat to act in ``view``; the budget as the search bot's.
    A provisional network judges nothing: the search's own evaluation does."""
    learned = None if network.provisional else network
    settings = replace(EXPERT_SETTINGS, network=learned, cpu_time=cpu_time)
    return search.choose(
        view, rng, budget_seconds=budget_seconds, iterations=iterations, settings=settings
    )
