"""The Duel search bot: five turns of lookahead over sampled hidden cards.

The bot's candidate actions are the greedy ranking's best few, never a wasted take while any
other action is legal (``games.bots.progress``). For each candidate and each of a few
determinisations (``games.bots.duel.determinize``), it completes its own turn greedily, lets
the next four turns be played by the greedy policy of whoever moves (the opponent and the
bot in turn, or the bot itself after a Refresh), and scores the position with
``games.bots.duel.evaluation``. The first determinisation plays every candidate, the later
ones only the best few so far; the candidate with the best mean, less a share of greedy's own
score gap to its first choice, wins. This sees what greedy cannot: the line of tokens or the
card an action leaves to the opponent, and the purchase it prepares for the bot's next turn.
Decisions inside a turn (a discard, a royal) are greedy's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.bots.duel import greedy
from games.bots.duel.determinize import DuelDeterminizer
from games.bots.duel.evaluation import position_value, win_probability
from games.bots.progress import progressing
from games.engine import Action, apply_legal, legal_actions
from games.engine.duel.state import GAME_OVER, MAIN, MANDATORY, DuelState


@dataclass(frozen=True, slots=True)
class Lookahead:
    """How far and how wide the lookahead searches, and how much greedy's opinion weighs."""

    width: int = 6
    """Candidate actions searched: the greedy ranking's best that are no wasted take."""
    turns_after: int = 4
    """Whole turns played by the greedy policy after the bot's own. Looking two rounds ahead
    beat looking one round ahead with twice the samples: the hidden cards matter little within
    a few turns, the plans the opponent can answer matter much
    (docs/decisions/0049-duel-search-two-rounds-ahead.md)."""
    keep: int = 3
    """Candidates still searched after the first sample: the best by then."""
    greedy_weight: float = 0.5
    """How much of greedy's own score gap to its first choice counts against a candidate."""
    prior_cap: float = 4.0
    """The largest gap counted, in points: a lookahead that sees more should win regardless."""


DEFAULT_LOOKAHEAD = Lookahead()
DEFAULT_SAMPLES = 1
"""Determinisations per candidate when neither a budget nor iterations are given."""

Valuation = Callable[[DuelState, int], float]
"""A position's worth to a seat, in points (``evaluation.position_value`` unless the Expert's
network judges)."""
Chance = Callable[[DuelState, int], float]
"""A position's chance to win for a seat, in [0, 1]."""


def choose(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    budget_seconds: float | None = None,
    iterations: int | None = None,
    value: Valuation = position_value,
    lookahead: Lookahead = DEFAULT_LOOKAHEAD,
) -> Action:
    """The action whose next two turns score best; ``iterations`` is the samples per candidate.

    With ``budget_seconds`` (and no ``iterations``) samples are added until the time is spent,
    at least one. The time is this thread's CPU time: on a loaded machine the bot thinks as
    much as on an idle one (only slower), so its strength does not depend on the load.
    """
    started = time.thread_time()
    determinizer = DuelDeterminizer(view)
    state = determinizer.sample(rng)
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    if state.phase not in (MAIN, MANDATORY):
        return greedy.best_action(state, rng)
    worth_searching = progressing(greedy.rank_with_waste(state, actions))
    ranked = sorted(worth_searching, key=lambda pair: -pair[0])[: lookahead.width]
    # Greedy's own judgement, as a prior: a few samples' noise should not overturn a clear
    # first choice, only a gain the lookahead sees in more than one deal.
    prior = _prior(ranked, lookahead)
    candidates = [action for _, action in ranked]
    seat = state.current
    totals = dict.fromkeys(candidates, 0.0)
    samples = iterations if iterations is not None else DEFAULT_SAMPLES
    done = 0
    while True:
        sample = state if done == 0 else determinizer.sample(rng)
        for action in candidates:
            totals[action] += value(_line(sample, action, seat, rng, lookahead), seat)
        done += 1
        if done == 1 and len(candidates) > lookahead.keep:
            # The later samples go to the contenders: one deal tells a loss or a clear
            # shortfall well enough, and the close calls need more deals than six can have.
            candidates.sort(key=lambda action: -(totals[action] + prior[action]))
            candidates = candidates[: lookahead.keep]
        if iterations is not None or budget_seconds is None:
            if done >= samples:
                break
        elif time.thread_time() - started >= budget_seconds:
            break
    return max(candidates, key=lambda action: totals[action] / done + prior[action])


def evaluate(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    samples: int,
    include: Action | None = None,
    chance: Chance = win_probability,
) -> Evaluation:
    """The lookahead's estimates in ``view`` (the acting seat's own view): each candidate's
    mean chance to win for the seat to act over ``samples`` determinisations, and the best.

    The candidates are the greedy ranking's best (the default lookahead's width) and
    ``include`` (the move a player made, which a game's analysis compares with the best), each
    looked ahead in every sample: reproducible from ``rng``'s seed. A position's chance is
    ``chance`` of the state the lookahead reaches (the hand-set ``win_probability``, or the
    Expert's network), averaged; the best is the highest mean, less greedy's prior as in
    :func:`choose`, so that the move the analysis prefers is the one the bot would play.
    """
    determinizer = DuelDeterminizer(view)
    state = determinizer.sample(rng)
    actions = legal_actions(state)
    worth_searching = progressing(greedy.rank_with_waste(state, actions))
    ranked = sorted(worth_searching, key=lambda pair: -pair[0])[: DEFAULT_LOOKAHEAD.width]
    prior = _prior(ranked, DEFAULT_LOOKAHEAD)
    candidates = [action for _, action in ranked]
    if include is not None and include not in prior:
        candidates.append(include)
        prior[include] = 0.0
    seat = state.current
    totals = dict.fromkeys(candidates, 0.0)
    count = max(1, samples)
    for done in range(count):
        sample = state if done == 0 else determinizer.sample(rng)
        for action in candidates:
            totals[action] += chance(_line(sample, action, seat, rng, DEFAULT_LOOKAHEAD), seat)
    estimates = {action: (totals[action] / count, count) for action in candidates}
    # The prior is in points and the estimates are chances: the bot's own scale is the
    # points of position_value, so the prior only breaks near-ties here.
    best = max(candidates, key=lambda action: (estimates[action][0], prior[action]))
    return Evaluation(best=best, estimates=estimates)


class Evaluation(NamedTuple):
    best: Action
    """The move the lookahead prefers: its highest mean chance."""
    estimates: dict[Action, tuple[float, int]]
    """Each candidate's mean chance to win for the mover, and its samples."""


def _prior(ranked: list[tuple[float, Action]], lookahead: Lookahead) -> dict[Action, float]:
    """Each candidate's greedy score gap to the first choice, weighed and capped, in points."""
    top = ranked[0][0]
    return {
        action: lookahead.greedy_weight * max(score - top, -lookahead.prior_cap)
        for score, action in ranked
    }


def _line(
    state: DuelState, action: Action, seat: int, rng: random.Random, lookahead: Lookahead
) -> DuelState:
    """The state after ``action``, the rest of the mover's turn and ``lookahead.turns_after``
    turns more, each played by the greedy policy."""
    after = _finish_turn(_play(state, action), seat, state.turn, rng)
    for _ in range(lookahead.turns_after):
        if after.phase == GAME_OVER:
            break
        after = _finish_turn(after, after.current, after.turn, rng)
    return after


def _finish_turn(state: DuelState, mover: int, turn: int, rng: random.Random) -> DuelState:
    """Play ``mover``'s turn to its end with the greedy policy."""
    while state.phase != GAME_OVER and state.current == mover and state.turn == turn:
        state = _play(state, greedy.best_action(state, rng))
    return state


def _play(state: DuelState, action: Action) -> DuelState:
    after = apply_legal(state, action)
    assert isinstance(after, DuelState)
    return after
