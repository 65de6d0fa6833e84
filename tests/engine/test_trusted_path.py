"""The trusted path (``apply_legal``) gives exactly the states of the validating ``apply_action``.

10,000 seeded random games for 2, 3 and 4 players go through both paths side by side; at every
step the two next states must be equal, and the game goes on from that state. One game in five
is played by "hoarders" that seldom buy: they take and reserve until the decks, the gold
and the gem supply run dry, and so reach empty board slots, returns of many tokens, forced
passes and games that end with every player passing. Purchases are sometimes made with a
payment other than the default, chosen from ``payment_options``.

A plain loop rather than Hypothesis: a million steps with per-example overhead would not fit
in CI's time, and the seeds are printed on failure so a failing game can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

import pytest

import games.engine as engine
from games.engine.splendor.actions import BuyCard, Pass

GAMES = 10_000
ACTION_BOUND = 3000
HOARDER_SHARE = 5
"""Every fifth game is played by hoarders."""

Apply = Callable[[engine.State, engine.Action], engine.State]


class Reached(NamedTuple):
    """What the games went through, so the test can show it covered the rare corners."""

    steps: int
    empty_decks: int
    """Steps after which at least one deck was empty."""
    empty_gem_supplies: int
    passes: int
    games_ended_by_passing: int
    chosen_payments: int


def choose(rng: random.Random, legal: list[engine.Action], hoarder: bool) -> engine.Action:
    if hoarder and rng.random() > 0.1:
        others = [action for action in legal if not isinstance(action, BuyCard)]
        if others:
            return rng.choice(others)
    return rng.choice(legal)


def play_both(seed: int, players: int, hoarder: bool, trusted: Apply) -> Reached:
    """One game through both paths; ``AssertionError`` names the game and step that differ."""
    state = engine.initial_state(engine.new_game("splendor", players, seed))
    rng = random.Random(seed)
    steps = empty_decks = empty_gems = passes = payments = 0
    while engine.outcome(state) is None:
        assert steps < ACTION_BOUND, f"game {seed} did not end"
        action = choose(rng, engine.legal_actions(state), hoarder)
        if type(action) is BuyCard and rng.random() < 0.3:
            options = engine.payment_options(state, action.card)
            if len(options) > 1:
                action = BuyCard(action.card, rng.choice(options))
                payments += 1
        expected = engine.apply_action(state, action)
        got = trusted(state, action)
        assert got == expected, (
            f"game seed={seed} players={players} hoarder={hoarder}, step {steps}: {action!r} "
            f"gives {got!r}, not {expected!r}"
        )
        state = expected
        steps += 1
        passes += type(action) is Pass
        empty_decks += not all(state.decks)
        empty_gems += not any(state.supply[:5])
    ended_by_passing = engine.outcome(state).ended_by == "all_passed"  # type: ignore[union-attr]
    return Reached(steps, empty_decks, empty_gems, passes, ended_by_passing, payments)


def play_many(games: int, trusted: Apply) -> Reached:
    totals = [0] * len(Reached._fields)
    for seed in range(games):
        reached = play_both(seed, 2 + seed % 3, seed % HOARDER_SHARE == 0, trusted)
        totals = [total + value for total, value in zip(totals, reached, strict=True)]
    return Reached(*totals)


def test_the_trusted_path_gives_the_validating_paths_states_over_ten_thousand_games() -> None:
    reached = play_many(GAMES, engine.apply_legal)
    # The games must have gone through the corners the trusted path shortcuts.
    assert reached.steps > GAMES * 50
    assert reached.empty_decks > 0
    assert reached.empty_gem_supplies > 0
    assert reached.passes > 0
    assert reached.games_ended_by_passing > 0
    assert reached.chosen_payments > 1000


def test_the_comparison_catches_a_trusted_path_that_differs() -> None:
    def forgets_the_turn_counter(state: engine.State, action: engine.Action) -> engine.State:
        after = engine.apply_legal(state, action)
        return after._replace(turn=state.turn) if after.turn > 40 else after

    with pytest.raises(AssertionError, match=r"game seed=0 players=2 hoarder=True, step \d+"):
        play_many(3, forgets_the_turn_counter)
