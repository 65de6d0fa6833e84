"""How an analysis judges a position of the base game: the search bot's information-set MCTS
(``games.bots.search.evaluate``), every iteration a fresh deal of the cards the mover cannot see."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots import search
from games.variants.base import PositionJudge

SEARCH_ITERATIONS = 400
"""Iterations per position, not seconds: the result does not depend on the machine and repeats
from the seed; about 0.06 s of CPU a position."""


def evaluate(
    view: Mapping[str, Any], rng: random.Random, budget: Mapping[str, int], include: Any
) -> search.Evaluation:
    return search.evaluate(view, rng, iterations=budget["iterations"], include=include)


JUDGE = PositionJudge(budget={"iterations": SEARCH_ITERATIONS}, evaluate=evaluate)
