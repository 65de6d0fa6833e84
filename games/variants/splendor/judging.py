"""How an analysis judges a position of the base game: the search bot's information-set MCTS
(``games.bots.search.evaluate``), every iteration a fresh deal of the cards the mover cannot see,
its playouts judged by the Expert's network once that has passed its gate (the Expert's search,
``games.bots.expert``), else by the hand-set evaluation."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from games.bots import expert, search
from games.bots.learning.network import ValueNetwork
from games.variants.base import PositionJudge

SEARCH_ITERATIONS = 400
"""Iterations per position, not seconds: the result does not depend on the machine and repeats
from the seed; about 0.06 s of CPU a position (0.07 s with the network)."""


def evaluate(
    view: Mapping[str, Any],
    rng: random.Random,
    budget: Mapping[str, int],
    include: Any,
    network: ValueNetwork | None,
) -> search.Evaluation:
    settings = replace(expert.EXPERT_SETTINGS, network=network)
    return search.evaluate(
        view, rng, iterations=budget["iterations"], include=include, settings=settings
    )


def judge(network: Path) -> PositionJudge:
    """The base game's judge, with the Expert network at ``network``."""
    return PositionJudge(
        budget={"iterations": SEARCH_ITERATIONS}, evaluate=evaluate, network=network
    )
