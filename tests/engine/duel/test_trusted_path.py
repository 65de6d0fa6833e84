"""Duel's trusted path (``apply_legal``) gives exactly the states of the checked ``apply_action``.

Seeded random games go through both paths side by side; at every step the two next states must
be equal, and the game goes on from that state. One game in four is played by "hoarders" that
seldom buy: they take and reserve until the board, the bag and the decks run low, and so reach
discards of many tokens, replenishing, reserving from the decks and forced passes. Purchases are
sometimes made with a payment other than the default, chosen from ``payment_options``; discards
are any exact discard the engine lists. The test then checks the games went through every kind
of step the trusted path builds on its own.

A plain loop rather than Hypothesis, as for the base game (``tests/engine/test_trusted_path.py``):
a few hundred thousand steps with per-example overhead would not fit in CI's time, and the seed
and step are printed on failure so a failing game can be replayed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import games.engine as engine
from games.engine.duel import actions as duel

GAMES = 1000
ACTION_BOUND = 3000
HOARDER_SHARE = 4
"""Every fourth game is played by hoarders."""

Apply = Callable[[engine.State, engine.Action], engine.State]


def choose(rng: random.Random, legal: list[engine.Action], hoarder: bool) -> engine.Action:
    if hoarder and rng.random() > 0.1:
        others = [action for action in legal if not isinstance(action, duel.BuyCard)]
        if others:
            return rng.choice(others)
    return rng.choice(legal)


def play_both(seed: int, hoarder: bool, trusted: Apply, reached: Counter[str]) -> None:
    """One game through both paths; ``AssertionError`` names the game and step that differ."""
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    rng = random.Random(seed)
    steps = 0
    while engine.outcome(state) is None:
        assert steps < ACTION_BOUND, f"game {seed} did not end"
        action = choose(rng, engine.legal_actions(state), hoarder)
        if type(action) is duel.BuyCard and rng.random() < 0.3:
            options = engine.payment_options(state, action.card)
            if len(options) > 1:
                action = duel.BuyCard(action.card, rng.choice(options))
                reached["chosen payment"] += 1
        expected = engine.apply_action(state, action)
        got = trusted(state, action)
        assert got == expected, (
            f"game seed={seed} hoarder={hoarder}, step {steps}: {action!r} "
            f"gives {got!r}, not {expected!r}"
        )
        reached[type(action).__name__] += 1
        if not all(expected.decks):
            reached["empty deck"] += 1
        state = expected
        steps += 1
    reached["steps"] += steps
    reached[engine.outcome(state).ended_by] += 1  # type: ignore[union-attr]


def play_many(games: int, trusted: Apply) -> Counter[str]:
    reached: Counter[str] = Counter()
    for seed in range(games):
        play_both(seed, seed % HOARDER_SHARE == 0, trusted, reached)
    return reached


def test_the_trusted_path_gives_the_validating_paths_states_at_every_step() -> None:
    reached = play_many(GAMES, engine.apply_legal)
    assert reached["steps"] > GAMES * 100
    # Every kind of step, and the corners the trusted path shortcuts, must have been played.
    for action_type in duel.ACTION_TYPES:
        assert reached[action_type.__name__] > 0, f"no {action_type.__name__} was played"
    assert reached["chosen payment"] > 100
    assert reached["empty deck"] > 0
    for ended_by in ("twenty_points", "ten_crowns", "ten_points_in_a_colour"):
        assert reached[ended_by] > 0, f"no game ended by {ended_by}"


def test_the_comparison_catches_a_trusted_path_that_differs() -> None:
    def forgets_the_bag(state: engine.State, action: engine.Action) -> engine.State:
        after = engine.apply_legal(state, action)
        return after._replace(bag=state.bag) if type(action) is duel.DiscardTokens else after

    with pytest.raises(AssertionError, match=r"game seed=\d+ hoarder=\w+, step \d+"):
        play_many(50, forgets_the_bag)
