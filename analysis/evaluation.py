"""Positions evaluated as their mover saw them: the engine and the search bots, nothing else.

Each move of a game is judged at the position before it, from the view of the seat that made it
(``engine.view(state, mover)``): the search bots' determinisation deals every card that seat could
not see (the decks' order, the other players' blind reserves) at random for each playout, so an
analysis never reads a hidden card, as the bots never do in play. The private state is folded
here only to take that view of it. Every position gets its own generator, seeded from the
analysis's seed and the step, so an analysis is reproducible and one position's result does not
depend on how many others were evaluated before it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from analysis.budget import mark_for
from games import engine
from games.variants import game_for


@dataclass(frozen=True)
class MoveJudged:
    """One move: who made it, their chance to win with the best move and with theirs."""

    step: int
    """The step the move makes (the replay's numbering): the position judged is ``step - 1``."""
    mover: int
    before: float
    """The mover's chance to win at the position, playing the move the analysis prefers."""
    after: float
    """The mover's chance to win after the move they made."""
    played: dict[str, Any]
    """The move made, as the engine's action JSON (the game's log holds it)."""
    preferred: dict[str, Any]
    """The move the analysis prefers, as the engine's action JSON."""
    played_is_preferred: bool

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def mark(self) -> str | None:
        return None if self.played_is_preferred else mark_for(self.drop)


def judge_move(
    variant: str,
    position: engine.State,
    played: dict[str, Any],
    *,
    step: int,
    seed: int,
    budget: dict[str, Any],
) -> MoveJudged:
    """Judge the move ``played`` (action JSON) at ``position`` from its mover's view only."""
    mover = engine.acting_seat(position)
    if mover is None:
        raise ValueError(f"nobody moves at the position before step {step}")
    seen = engine.view(position, mover)
    action = engine.action_from_json(played, variant)
    rng = random.Random(f"analysis:{seed}:{step}")
    judge = game_for(variant).position_judge
    result = judge.evaluate(seen, rng, budget, action, judge.network_for(budget))
    before = result.estimates[result.best][0]
    after = result.estimates[action][0] if action in result.estimates else before
    return MoveJudged(
        step=step,
        mover=mover,
        before=before,
        after=after,
        played=engine.action_to_json(action),
        preferred=engine.action_to_json(result.best),
        played_is_preferred=result.best == action,
    )


def judge_game(
    variant: str,
    states: Sequence[engine.State],
    actions: Sequence[dict[str, Any] | None],
    *,
    seed: int,
    budget: dict[str, Any],
    progress: Callable[[int], None] | None = None,
) -> list[MoveJudged]:
    """Every move of a game: ``states[n]`` is the game at step n, ``actions[n - 1]`` the action
    that made step n (None for a step that is no move: a resignation, the end). ``progress``
    is told the number of moves judged after each one."""
    judged: list[MoveJudged] = []
    for index, played in enumerate(actions):
        if played is None:
            continue
        step = index + 1
        judged.append(
            judge_move(variant, states[index], played, step=step, seed=seed, budget=budget)
        )
        if progress is not None:
            progress(len(judged))
    return judged


def moves_to_judge(actions: Sequence[dict[str, Any] | None]) -> int:
    return sum(1 for action in actions if action is not None)
