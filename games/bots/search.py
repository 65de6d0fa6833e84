"""The search bot: Monte Carlo tree search over determinisations of the hidden cards.

The algorithm is single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).
The bot sees only its view. Every iteration deals the cards it cannot see at random
(:class:`~games.bots.determinize.Determinizer`) and walks one shared tree whose edges are
actions, using only the edges legal in that deal: a child's UCB score counts its visits against
the number of times it was available rather than its parent's visits. The tree's first ply holds
the bot's own decisions, which every deal allows alike; deeper plies hold every player's moves,
so the opponents are searched too, each maximising their own score.

- Selection: UCB1 with exploration constant ``exploration`` on scores in [0, 1]; at the root a
  progressive bias toward the greedy bot's ranking (``prior_weight``), so the few hundred noisy
  playouts a move affords overturn greedy's choice only on clear evidence.
- Action pruning: at the root the greedy bot's one-move ranking keeps the ``root_width`` best
  actions (purchases always kept), and no wasted take while any other action is legal
  (``games.bots.progress``); deeper, progressive widening admits actions in the playout
  policy's order, ``widen_base`` plus ``visits ** widen_power`` of them. Token returns in the
  tree are the playout policy's single choice; a return the bot itself must make now is chosen
  by the greedy ranking without a search (the excess goes back either way).
- Leaf evaluation: a truncated playout with the cheap policy of ``games.bots.policy`` until
  ``horizon`` whole rounds after the root (or the end of the game), then the static evaluation
  (``games.bots.evaluation.position_scores``) gives every seat a score in [0, 1]; a finished game
  gives its real result. Each node accumulates the score of the seat that moved into it.
- Budget: ``iterations`` (reproducible: the same view and seed give the same action) or
  ``budget_seconds`` of wall-clock time. The final move is the root child visited most.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from games.bots import greedy, policy
from games.bots.determinize import Determinizer
from games.bots.evaluation import DEFAULT_WEIGHTS, Weights, position_scores
from games.bots.features import seat_rows
from games.bots.learning.network import ValueNetwork
from games.bots.progress import progressing
from games.engine import Action, State, apply_legal, legal_actions
from games.engine.splendor.actions import BuyCard
from games.engine.splendor.state import CHOOSE_NOBLE, GAME_OVER, MAIN, RETURN_TOKENS

DEFAULT_BUDGET_SECONDS = 0.25


@dataclass(frozen=True, slots=True)
class SearchSettings:
    exploration: float = 0.4
    root_width: int = 8
    widen_base: int = 2
    widen_power: float = 0.5
    horizon: int = 3
    """Whole rounds after the root at which a playout stops and the position is evaluated."""
    weights: Weights = field(default=DEFAULT_WEIGHTS)
    prior_weight: float = 1.0
    """Progressive bias at the root: each action's greedy score, less the best one's (in
    points), times this, divided by its visits plus one, is added to its UCB score. The search
    starts from the greedy bot's opinion and leaves it as its own evidence grows."""
    network: ValueNetwork | None = None
    """The Expert's learned evaluation at a playout's end, in place of the hand-set one; it
    reads the sampled deal as the searching seat sees it (``games.bots.features``)."""
    cpu_time: bool = False
    """Count ``budget_seconds`` in this thread's CPU time rather than wall-clock time.

    A live game waits wall-clock time, so that is the default; on a shared machine the CPU
    time a move gets varies with the load, and a benchmark that compares bots counts CPU time
    so that its result does not depend on what else the machine runs."""


DEFAULT_SETTINGS = SearchSettings()


class _Node:
    __slots__ = ("available", "children", "mover", "ranked", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}
        self.ranked: tuple[Any, tuple[int, ...], list[Action]] | None = None
        """The last deal's board and mover's reserves here, and its actions ranked best first.

        The path to a node fixes everything but the cards drawn from the decks and the
        opponents' unseen reserves: while a deal has the same board object (no card was drawn
        on the way) and the mover holds the same reserves, the ranking is the same."""


def choose(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    budget_seconds: float | None = None,
    iterations: int | None = None,
    settings: SearchSettings = DEFAULT_SETTINGS,
) -> Action:
    """The search bot's action for the seat to act in ``view`` (its own view).

    With ``iterations`` the search is reproducible; otherwise it runs for ``budget_seconds``
    (default 0.25 s) of wall-clock time, and always for at least one iteration.
    """
    clock = time.thread_time if settings.cpu_time else time.perf_counter
    started = clock()
    determinizer = Determinizer(view)
    first = determinizer.sample(rng)
    actions = legal_actions(first)
    if len(actions) == 1:
        return actions[0]
    if first.phase == RETURN_TOKENS:
        return greedy.best_action(first, rng, settings.weights)
    ranked = _root_actions(first, actions, settings)
    if len(ranked) == 1:
        return ranked[0][1]
    deadline = None
    if iterations is None:
        seconds = DEFAULT_BUDGET_SECONDS if budget_seconds is None else budget_seconds
        deadline = started + seconds
    root, root_actions = _search(
        determinizer, first, ranked, rng, settings, iterations, clock, deadline
    )
    return _most_visited(root, root_actions)


def evaluate(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    iterations: int,
    include: Action | None = None,
    settings: SearchSettings = DEFAULT_SETTINGS,
) -> Evaluation:
    """The search's estimates at the root of ``view`` (the acting seat's own view): the move it
    prefers, and each root move's mean score for the seat to act, a chance to win in [0, 1].

    The search of :func:`choose` with ``iterations`` (reproducible from ``rng``'s seed), every
    phase searched (no shortcut for a forced move or a token return). ``include`` joins the
    root's candidates if the greedy pruning left it out, without the greedy ranking's bias
    against it: the move a player made, whose estimate a game's analysis compares with the best.
    """
    determinizer = Determinizer(view)
    first = determinizer.sample(rng)
    actions = legal_actions(first)
    ranked = _root_actions(first, actions, settings)
    if include is not None and all(action != include for _, action in ranked):
        ranked.append((ranked[0][0], include))
    root, root_actions = _search(
        determinizer, first, ranked, rng, settings, max(1, iterations), time.perf_counter, None
    )
    estimates = {
        action: (child.total / child.visits, child.visits)
        for action, child in root.children.items()
        if child.visits
    }
    return Evaluation(best=_most_visited(root, root_actions), estimates=estimates)


class Evaluation(NamedTuple):
    best: Action
    """The move the search prefers: its most visited."""
    estimates: dict[Action, tuple[float, int]]
    """Each searched root move's mean score for the mover and its visits."""


def _search(
    determinizer: Determinizer,
    first: State,
    ranked: list[tuple[float, Action]],
    rng: random.Random,
    settings: SearchSettings,
    iterations: int | None,
    clock: Callable[[], float],
    deadline: float | None,
) -> tuple[_Node, list[Action]]:
    """Run the tree search from ``first``'s root over the ``ranked`` candidates."""
    root_actions = [action for _, action in ranked]
    best_score = ranked[0][0]
    bias = {action: settings.prior_weight * (score - best_score) for score, action in ranked}
    root = _Node(mover=-1)
    horizon = first.turn + settings.horizon * len(first.players)
    observer = first.current
    done = 0
    while True:
        _iterate(
            root, root_actions, bias, determinizer.sample(rng), rng, horizon, settings, observer
        )
        done += 1
        if iterations is not None:
            if done >= iterations:
                break
        elif deadline is not None and clock() >= deadline:
            break
    return root, root_actions


def _most_visited(root: _Node, root_actions: list[Action]) -> Action:
    return max(
        root_actions,
        key=lambda action: (
            root.children[action].visits if action in root.children else -1,
            root.children[action].total if action in root.children else 0.0,
        ),
    )


def _root_actions(
    state: State, actions: list[Action], settings: SearchSettings
) -> list[tuple[float, Action]]:
    """The root's candidates with their greedy scores, best first: the greedy ranking's best
    few and every purchase, never a wasted take while there is anything else."""
    ranked = sorted(
        progressing(greedy.rank_with_waste(state, actions, settings.weights)),
        key=lambda pair: -pair[0],
    )
    if state.phase != MAIN:
        return ranked
    width = settings.root_width
    return ranked[:width] + [pair for pair in ranked[width:] if isinstance(pair[1], BuyCard)]


def _iterate(
    root: _Node,
    root_actions: list[Action],
    root_bias: dict[Action, float],
    state: State,
    rng: random.Random,
    horizon: int,
    settings: SearchSettings,
    observer: int,
) -> None:
    path = [root]
    node = root
    candidates = root_actions
    exploration = settings.exploration
    while True:
        untried = None
        for action in candidates:
            if action not in node.children:
                untried = action
                break
        if untried is not None:
            child = _Node(mover=state.current)
            node.children[untried] = child
            path.append(child)
            state = apply_legal(state, untried)
            break
        best_score = -math.inf
        best_action = candidates[0]
        log_cache: dict[int, float] = {}
        at_root = node is root
        for action in candidates:
            child = node.children[action]
            child.available += 1
            available = child.available
            log = log_cache.get(available)
            if log is None:
                log = log_cache[available] = math.log(available)
            score = child.total / child.visits + exploration * math.sqrt(log / child.visits)
            if at_root:
                score += root_bias[action] / (child.visits + 1)
            if score > best_score:
                best_score = score
                best_action = action
        node = node.children[best_action]
        path.append(node)
        state = apply_legal(state, best_action)
        if state.phase == GAME_OVER:
            break
        candidates = _tree_actions(node, state, settings)
    scores = _playout(state, rng, horizon, settings, observer)
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.total += scores[visited.mover]


def _tree_actions(node: _Node, state: State, settings: SearchSettings) -> list[Action]:
    """The actions a tree node below the root considers, best first by the playout policy."""
    if state.phase == RETURN_TOKENS:
        return [policy.tokens_to_return(state)]
    reserved = state.players[state.current].reserved
    ranked = node.ranked
    if ranked is not None and ranked[0] is state.board and ranked[1] == reserved:
        ordered = ranked[2]
    else:
        actions = legal_actions(state)
        if state.phase == CHOOSE_NOBLE or len(actions) == 1:
            return actions
        scores = policy.score_actions(state, actions, policy.Plan(state))
        order = sorted(range(len(actions)), key=lambda index: -scores[index])
        ordered = [actions[index] for index in order]
        node.ranked = (state.board, reserved, ordered)
    width = settings.widen_base + int((node.visits + 1) ** settings.widen_power)
    return ordered[:width]


def _playout(
    state: State, rng: random.Random, horizon: int, settings: SearchSettings, observer: int
) -> list[float]:
    """Play the cheap policy to the horizon's round end (or the game's), then score it."""
    seats = len(state.players)
    while state.phase != GAME_OVER and (
        state.phase != MAIN or state.turn < horizon or (state.turn - horizon) % seats
    ):
        state = apply_legal(state, policy.choose(state, rng))
    network = settings.network
    if network is None or state.phase == GAME_OVER:
        return position_scores(state, settings.weights)
    return network.chances(seat_rows(state, observer))
