"""How an analysis judges a position of Splendor Duel: the search bot's lookahead
(``games.bots.duel.search.evaluate``), two rounds ahead from each of the greedy ranking's best
moves and the move played, over fresh deals of the cards the mover cannot see; where the
lookahead ends, the Expert's network judges once it has passed its gate (the Expert's own
judgement, ``games.bots.duel.expert``), else the hand-set evaluation's logistic."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from games.bots.duel import expert, search
from games.bots.learning.network import ValueNetwork
from games.engine.duel.state import DuelState
from games.variants.base import PositionJudge

DUEL_SAMPLES = 4
"""Determinisations per position: about 0.2 s of CPU a position."""


def evaluate(
    view: Mapping[str, Any],
    rng: random.Random,
    budget: Mapping[str, int],
    include: Any,
    network: ValueNetwork | None,
) -> search.Evaluation:
    if network is None:
        return search.evaluate(view, rng, samples=budget["samples"], include=include)
    chance = partial(_learned_chance, network, int(view["viewer"]))
    return search.evaluate(view, rng, samples=budget["samples"], include=include, chance=chance)


def _learned_chance(network: ValueNetwork, observer: int, state: DuelState, seat: int) -> float:
    return expert.learned_chance(network, state, seat, observer)


def judge(network: Path) -> PositionJudge:
    """The Duel's judge, with the Expert network at ``network``."""
    return PositionJudge(budget={"samples": DUEL_SAMPLES}, evaluate=evaluate, network=network)
