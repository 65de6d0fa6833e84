"""Duel's playout kernel (``random_playout``) plays exactly the games of the step-by-step engine.

Each game is played twice from its setup with the same seeded ``pick``: step by step
(``legal_actions``, then ``apply_legal`` of the option chosen), recording each step's number of
options and the index chosen, and by the kernel, whose ``pick`` replays those indexes. The kernel
must ask for the same number of options at every step and give the same state at the start of
every turn (played turn by turn with ``until_turn``) and at the end (played in one go, and from
states in the middle of a turn, where a purchase, a reserve or a discard is being resolved): an
option listed in another order would make the same index take another action, and a state would
differ. One game in four is played by "hoarders" that seldom buy, which reach forced passes, and
the uniform games are also played with a seeded ``randrange`` as ``pick``.

A plain loop rather than Hypothesis, like ``test_trusted_path.py``: many whole games, with the
seed printed on failure so a failing game can be replayed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import games.engine as engine
from games.engine.duel.actions import ACTION_TYPES, BuyCard
from games.engine.duel.state import PHASES
from games.engine.picks import direct_pick

GAMES = 450
TURN_BY_TURN_SHARE = 3
"""Every third game is also played by the kernel one turn at a time."""
MID_TURN_SHARE = 8
"""And every eighth of its mid-turn states of every third game is played on by the kernel."""
HOARDER_SHARE = 4
"""Every fourth game is played by hoarders, as in ``test_trusted_path.py``."""
PASSING_SEEDS = (576, 764)
"""Hoarders' games that reach a forced pass (about one in a hundred does), played as well."""

Pick = Callable[[int], int]
Choose = Callable[[list[engine.Action]], int]


def uniform(seed: int) -> Choose:
    randrange = random.Random(seed).randrange
    return lambda options: randrange(len(options))


def hoarder(seed: int) -> Choose:
    """Seldom buys: takes and reserves until the board, the bag and the decks run low."""
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
    mid_turn: list[tuple[int, engine.State]] | None = None,
) -> list[engine.State]:
    """The states at the start of every turn and the final one; ``picks`` gets each step's
    number of options and the index chosen, ``mid_turn`` each step's state and index when the
    step is not a turn's first."""
    turn_starts = [state]
    while engine.outcome(state) is None:
        if mid_turn is not None and state.phase != "main":
            mid_turn.append((len(picks), state))
        options = engine.legal_actions(state)
        index = choose(options)
        picks.append((len(options), index))
        reached[type(options[index]).__name__] += 1
        turn = state.turn
        state = engine.apply_legal(state, options[index])
        if state.turn != turn:
            turn_starts.append(state)
    return turn_starts


def replay(picks: list[tuple[int, int]], where: str) -> Pick:
    """A pick that makes the recorded choices, checking each step offers as many options."""
    steps = iter(enumerate(picks))

    def pick(count: int) -> int:
        step, (expected, index) = next(steps)
        assert count == expected, f"{where}, step {step}: {count} options, not {expected}"
        return index

    return pick


def check_game(seed: int, reached: Counter[str]) -> None:
    hoarding = seed % HOARDER_SHARE == 0
    where = f"game seed={seed} hoarder={hoarding}"
    start = engine.initial_state(engine.new_game("duel", 2, seed))
    picks: list[tuple[int, int]] = []
    choose = hoarder(seed) if hoarding else uniform(seed)
    mid_turn: list[tuple[int, engine.State]] = []
    turn_starts = step_by_step(start, choose, picks, reached, mid_turn)
    final = turn_starts[-1]

    played = engine.random_playout(start, replay(picks, where))
    assert played == final, f"{where}: the final states differ"
    assert engine.outcome(played) == engine.outcome(final)
    reached[engine.outcome(final).ended_by] += 1  # type: ignore[union-attr]
    if not hoarding:
        # A seeded Random's randrange picks as its choice does on the listed options.
        assert engine.random_playout(start, random.Random(seed).randrange) == final

    if seed % TURN_BY_TURN_SHARE == 0:
        pick = replay(picks, where)
        state = start
        for number, expected in enumerate(turn_starts[1:], start=1):
            state = engine.random_playout(state, pick, until_turn=state.turn + 1)
            assert state == expected, f"{where}: turn {number} starts differently"

    if seed % TURN_BY_TURN_SHARE == 1:
        # Started mid-turn (a card just taken from the pyramid, a discard, a royal to choose...),
        # the kernel must take the game on from there as the step-by-step engine did.
        for step, state in mid_turn[::MID_TURN_SHARE]:
            reached[f"from {state.phase}"] += 1
            played = engine.random_playout(state, replay(picks[step:], f"{where} from {step}"))
            assert played == final, f"{where}: played on from step {step}, the games differ"


def test_the_kernel_plays_the_step_by_step_engines_games() -> None:
    reached: Counter[str] = Counter()
    for seed in (*range(GAMES), *PASSING_SEEDS):
        check_game(seed, reached)
    for action_type in ACTION_TYPES:
        assert reached[action_type.__name__] > 0, f"no {action_type.__name__} was played"
    for ended_by in ("twenty_points", "ten_crowns", "ten_points_in_a_colour"):
        assert reached[ended_by] > 0, f"no game ended by {ended_by}"
    for phase in set(PHASES) - {"main", "game_over"}:
        assert reached[f"from {phase}"] > 0, f"no playout started in phase {phase}"


def test_the_comparison_catches_a_kernel_that_lists_options_in_another_order() -> None:
    picks: list[tuple[int, int]] = []
    start = engine.initial_state(engine.new_game("duel", 2, 5))
    expected = step_by_step(start, uniform(5), picks, Counter())[-1]
    mirrored = [(count, count - 1 - index) for count, index in picks]
    with pytest.raises(AssertionError, match=r"game seed=5 hoarder=False, step \d+: \d+ options"):
        assert (
            engine.random_playout(start, replay(mirrored, "game seed=5 hoarder=False")) == expected
        )


def test_a_playout_stops_where_the_turn_starts_and_leaves_a_finished_game_alone() -> None:
    start = engine.initial_state(engine.new_game("duel", 2, 8))
    pick = random.Random(8).randrange
    after = engine.random_playout(start, pick, until_turn=6)
    assert (after.phase, after.turn) == ("main", 6)
    assert engine.random_playout(after, pick, until_turn=6) is after
    final = engine.random_playout(after, pick)
    assert engine.outcome(final) is not None
    assert engine.random_playout(final, pick) is final


@pytest.mark.parametrize("seed", [1, 2])
def test_a_base_game_playout_is_the_step_by_step_loop(seed: int) -> None:
    start = engine.initial_state(engine.new_game("splendor", 3, seed))
    expected = step_by_step(start, uniform(seed), [], Counter())[-1]
    assert engine.random_playout(start, random.Random(seed).randrange) == expected


def test_a_random_generators_randrange_is_called_the_way_it_would_pick() -> None:
    # The kernel calls what a Random's randrange calls: the same numbers, one call fewer.
    counts = [count for count in range(1, 40) for _ in range(20)]
    expected = list(map(random.Random(3).randrange, counts))
    direct = direct_pick(random.Random(3).randrange)
    assert direct.__func__ is random.Random._randbelow  # type: ignore[attr-defined]
    assert list(map(direct, counts)) == expected

    def own_pick(count: int) -> int:
        return count - 1

    assert direct_pick(own_pick) is own_pick
