"""How an analysis judges a position of Splendor Duel: the search bot's lookahead
(``games.bots.duel.search.evaluate``), two rounds ahead from each of the greedy ranking's best
moves and the move played, over fresh deals of the cards the mover cannot see."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots.duel import search
from games.variants.base import PositionJudge

DUEL_SAMPLES = 4
"""Determinisations per position: about 0.2 s of CPU a position."""


def evaluate(
    view: Mapping[str, Any], rng: random.Random, budget: Mapping[str, int], include: Any
) -> search.Evaluation:
    return search.evaluate(view, rng, samples=budget["samples"], include=include)


JUDGE = PositionJudge(budget={"samples": DUEL_SAMPLES}, evaluate=evaluate)
