"""The base game's playout kernel (``random_playout``) plays the step-by-step engine's games.

Each game (2, 3 and 4 players) is played step by step from its setup (``legal_actions``, then
``apply_legal`` of the option chosen), recording each step's number of options and the index
chosen; then the kernel plays it with a ``pick`` that replays those indexes and checks that every
step offers as many options. The kernel must reach the same final state in one go, the same
state at the start of every turn when played turn by turn (``until_turn``), and the same final
state when started in the middle of a turn (tokens to return, a noble to choose). An option
listed in another order would make the same index take another action, and a state would differ.
One game in five is played by "hoarders" that seldom buy, which empty the supply, the decks and
the board and reach forced passes; the uniform games are also played with a seeded
``randrange``, whose picks are those ``choice`` makes in the benchmark's loop.

A plain loop rather than Hypothesis, like ``test_trusted_path.py``: many whole games, with the
seed printed on failure so a failing game can be replayed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import games.engine as engine
from games.engine.splendor.actions import BuyCard
from games.engine.splendor.rules import ACTION_TYPES
from games.engine.splendor.state import GameState

GAMES = 900
HOARDER_SHARE = 5
"""Every fifth game is played by hoarders, as in ``test_trusted_path.py``."""
TURN_BY_TURN_SHARE = 3
"""Every third game is also played by the kernel one turn at a time."""
MID_TURN_SHARE = 4
"""And every fourth of its mid-turn states of every third game (another third) is played on."""

Pick = Callable[[int], int]
Choose = Callable[[list[engine.Action]], int]


def uniform(seed: int) -> Choose:
    randrange = random.Random(seed).randrange
    return lambda options: randrange(len(options))


def hoarder(seed: int) -> Choose:
    """Seldom buys: takes and reserves until the supply, the decks and the board run low."""
    rng = random.Random(seed)

    def choose(options: list[engine.Action]) -> int:
        if rng.random() > 0.1:
            others = [i for i, action in enumerate(options) if not isinstance(action, BuyCard)]
            if others:
                return rng.choice(others)
        return rng.randrange(len(options))

    return choose


def step_by_step(
    state: engine.State,
    choose: Choose,
    picks: list[tuple[int, int]],
    reached: Counter[str],
    mid_turn: list[tuple[int, engine.State]],
) -> list[engine.State]:
    """The states at the start of every turn and the final one; ``picks`` gets each step's
    number of options and the index chosen, ``mid_turn`` each step's state and index when the
    step is not a turn's first."""
    turn_starts = [state]
    while engine.outcome(state) is None:
        if state.phase != "main":
            mid_turn.append((len(picks), state))
        options = engine.legal_actions(state)
        index = choose(options)
        picks.append((len(options), index))
        reached[type(options[index]).__name__] += 1
        turn = state.turn
        state = engine.apply_legal(state, options[index])
        assert isinstance(state, GameState)
        reached["empty supply"] += not any(state.supply[:5])
        reached["empty deck"] += not all(state.decks)
        if state.turn != turn:
            turn_starts.append(state)
    return turn_starts


def replay(picks: list[tuple[int, int]], where: str) -> Pick:
    """A pick that makes the recorded choices, checking each step offers as many options."""
    steps = iter(enumerate(picks))

    def pick(count: int) -> int:
        step, recorded = next(steps, (len(picks), None))
        assert recorded is not None, f"{where}: played on past the game's {len(picks)} steps"
        expected, index = recorded
        assert count == expected, f"{where}, step {step}: {count} options, not {expected}"
        return index

    return pick


def check_game(seed: int, reached: Counter[str]) -> None:
    players = 2 + seed % 3
    hoarding = seed % HOARDER_SHARE == 0
    where = f"game seed={seed} players={players} hoarder={hoarding}"
    start = engine.initial_state(engine.new_game("splendor", players, seed))
    picks: list[tuple[int, int]] = []
    mid_turn: list[tuple[int, engine.State]] = []
    choose = hoarder(seed) if hoarding else uniform(seed)
    turn_starts = step_by_step(start, choose, picks, reached, mid_turn)
    final = turn_starts[-1]

    played = engine.random_playout(start, replay(picks, where))
    assert played == final, f"{where}: the final states differ"
    assert engine.outcome(played) == engine.outcome(final)
    reached[engine.outcome(final).ended_by] += 1  # type: ignore[union-attr]
    if not hoarding:
        assert engine.random_playout(start, random.Random(seed).randrange) == final, where

    if seed % TURN_BY_TURN_SHARE == 0:
        pick = replay(picks, where)
        state = start
        for number, expected in enumerate(turn_starts[1:], start=1):
            state = engine.random_playout(state, pick, until_turn=state.turn + 1)
            assert state == expected, f"{where}: turn {number} starts differently"

    if seed % TURN_BY_TURN_SHARE == 1:
        for step, state in mid_turn[::MID_TURN_SHARE]:
            reached[f"from {state.phase}"] += 1
            played = engine.random_playout(state, replay(picks[step:], f"{where} from {step}"))
            assert played == final, f"{where}: played on from step {step}, the games differ"


def test_the_kernel_plays_the_step_by_step_engines_games() -> None:
    reached: Counter[str] = Counter()
    for seed in range(GAMES):
        check_game(seed, reached)
    for action_type in ACTION_TYPES:
        assert reached[action_type.__name__] > 0, f"no {action_type.__name__} was played"
    for corner in ("empty supply", "empty deck", "reached_points", "all_passed"):
        assert reached[corner] > 0, f"no game reached {corner}"
    for phase in ("return_tokens", "choose_noble"):
        assert reached[f"from {phase}"] > 0, f"no playout started in phase {phase}"


def test_the_comparison_catches_a_kernel_that_lists_options_in_another_order() -> None:
    start = engine.initial_state(engine.new_game("splendor", 2, 5))
    picks: list[tuple[int, int]] = []
    expected = step_by_step(start, uniform(5), picks, Counter(), [])[-1]
    mirrored = [(count, count - 1 - index) for count, index in picks]
    with pytest.raises(AssertionError, match=r"game seed=5, step \d+: \d+ options"):
        assert engine.random_playout(start, replay(mirrored, "game seed=5")) == expected


def test_a_playout_stops_where_the_turn_starts_and_leaves_a_finished_game_alone() -> None:
    start = engine.initial_state(engine.new_game("splendor", 4, 8))
    pick = random.Random(8).randrange
    after = engine.random_playout(start, pick, until_turn=6)
    assert (after.phase, after.turn) == ("main", 6)
    assert engine.random_playout(after, pick, until_turn=6) is after
    final = engine.random_playout(after, pick)
    assert engine.outcome(final) is not None
    assert engine.random_playout(final, pick) is final
