"""The Duel bots: they read a view, play only legal actions, and finish games.

A Duel view hides the decks' order, the bag's draw orders and the opponent's blind reserves; a
determinised sample must agree with everything the view shows, and the bots must choose the same
action whatever the hidden part holds.
"""

from __future__ import annotations

import random

import pytest

import games.engine as engine
from games.bots.duel.determinize import DuelDeterminizer
from games.engine.duel.actions import ReserveFromDeck, TakeGold
from games.engine.duel.state import DuelState
from games.variants import choose_bot_action


def random_game(seed: int, moves: int) -> list[DuelState]:
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    assert isinstance(state, DuelState)
    rng = random.Random(seed)
    states = [state]
    while engine.outcome(state) is None and len(states) < moves:
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
        assert isinstance(state, DuelState)
        states.append(state)
    return states


def with_a_blind_reserve(seed: int) -> DuelState:
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    gold = next(a for a in engine.legal_actions(state) if isinstance(a, TakeGold))
    state = engine.apply_action(engine.apply_action(state, gold), ReserveFromDeck(2))
    assert isinstance(state, DuelState)
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_sample_agrees_with_everything_its_view_shows(seed: int) -> None:
    rng = random.Random(seed)
    for state in random_game(seed, 400)[::5]:
        for seat in (0, 1):
            seen = engine.view(state, seat)
            sample = DuelDeterminizer(seen).sample(rng)
            assert engine.view(sample, seat) == seen
            assert engine.state_from_json(engine.state_to_json(sample)) == sample


def test_a_sample_deals_the_opponents_blind_reserve_from_the_unseen_cards() -> None:
    state = with_a_blind_reserve(4)
    seat = state.current
    seen = engine.view(state, seat)
    samples = [DuelDeterminizer(seen).sample(random.Random(n)) for n in range(20)]
    dealt = {sample.players[1 - seat].reserved[0] for sample in samples}
    assert len(dealt) > 1
    assert all(30 <= card < 54 for card in dealt)


@pytest.mark.parametrize("level", ["random", "greedy", "search", "expert"])
def test_each_bot_plays_only_legal_actions_in_a_duel(level: str) -> None:
    for index, state in enumerate(random_game(11, 300)[:-1:15]):
        seat = state.current
        action = choose_bot_action(level, engine.view(state, seat), seed=index, iterations=1)
        assert action in engine.legal_actions(state)


@pytest.mark.parametrize("level", ["greedy", "search", "expert"])
def test_a_bot_chooses_the_same_whatever_the_hidden_cards(level: str) -> None:
    state = with_a_blind_reserve(5)
    other = state._replace(
        decks=tuple(tuple(reversed(deck)) for deck in state.decks),
        bag_draws=tuple(tuple(reversed(order)) for order in state.bag_draws),
    )
    seat = state.current
    assert engine.view(other, seat) == engine.view(state, seat)
    for seed in range(3):
        first = choose_bot_action(level, engine.view(state, seat), seed=seed, iterations=1)
        second = choose_bot_action(level, engine.view(other, seat), seed=seed, iterations=1)
        assert first == second


def test_greedy_finishes_a_game_against_random() -> None:
    state = engine.initial_state(engine.new_game("duel", 2, 3))
    bots = ("greedy", "random")
    for move in range(2000):
        if engine.outcome(state) is not None:
            break
        seat = state.current
        state = engine.apply_action(
            state, choose_bot_action(bots[seat], engine.view(state, seat), seed=move)
        )
    result = engine.outcome(state)
    assert result is not None
    assert result.winners == (0,)


def test_a_bot_refuses_a_view_of_a_game_it_does_not_know() -> None:
    seen = dict(engine.view(engine.initial_state(engine.new_game("duel", 2, 1)), 0))
    seen["variant"] = "chess"
    seen["viewer"] = seen["current"]
    with pytest.raises(ValueError, match="no bots"):
        choose_bot_action("greedy", seen, seed=0)
