"""Bots read only a seat's view: hidden cards cannot change their choice, and a seed fixes it."""

from __future__ import annotations

import inspect
import random
import time

import pytest

import games.engine as engine
from games.bots import (
    BOT_LEVELS,
    BOTS,
    bot_description,
    bot_label,
    greedy,
    random_bot,
    search,
)
from games.engine import State
from games.engine.splendor.actions import ReserveFromDeck, TakeGems
from games.variants import GAMES, choose_bot_action

ITERATIONS = 60


def position_with_a_blind_reserve() -> State:
    """Seat 1 has reserved a level-3 card unseen; seat 0, the bot, is to act."""
    state = engine.initial_state(engine.new_game("splendor", 2, 21))
    for action in (
        TakeGems((0, 1, 2)),
        TakeGems((2, 3, 4)),
        TakeGems((1, 3, 4)),
        ReserveFromDeck(3),
    ):
        state = engine.apply_action(state, action)
    assert state.current == 0
    assert state.players[1].blind
    return state


def with_other_hidden_cards(state: State) -> State:
    """The same position but for what seat 0 cannot see: another blind card, reshuffled decks."""
    blind = state.players[1].blind[0]
    level_three = list(state.decks[2])
    swapped_in = level_three.pop(3)
    level_three.append(blind)
    decks = (tuple(reversed(state.decks[0])), tuple(reversed(state.decks[1])), tuple(level_three))
    reserved = tuple(swapped_in if card == blind else card for card in state.players[1].reserved)
    other = state.players[1]._replace(reserved=reserved, blind=(swapped_in,))
    return state._replace(players=(state.players[0], other), decks=decks)


def test_hidden_cards_do_not_change_any_bots_choice() -> None:
    state = position_with_a_blind_reserve()
    other = with_other_hidden_cards(state)
    assert engine.state_from_json(engine.state_to_json(other)) == other
    assert other != state
    assert engine.view(other, 0) == engine.view(state, 0)
    assert engine.view(other, 1) != engine.view(state, 1)
    for level in BOT_LEVELS:
        for seed in range(3):
            first = choose_bot_action(
                level, engine.view(state, 0), seed=seed, iterations=ITERATIONS
            )
            second = choose_bot_action(
                level, engine.view(other, 0), seed=seed, iterations=ITERATIONS
            )
            assert first == second


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_the_same_view_and_seed_give_the_same_action(level: str) -> None:
    rng = random.Random(4)
    state = engine.initial_state(engine.new_game("splendor", 3, 8))
    for _ in range(30):
        seen = engine.view(state, state.current)
        seed = rng.randrange(10**6)
        action = choose_bot_action(level, seen, seed=seed, iterations=ITERATIONS)
        assert choose_bot_action(level, seen, seed=seed, iterations=ITERATIONS) == action
        state = engine.apply_action(state, action)


def test_bot_functions_take_a_view_never_a_state() -> None:
    state = position_with_a_blind_reserve()
    expert = GAMES["splendor"].expert.play
    for choose in (random_bot.choose, greedy.choose, search.choose, expert):
        assert next(iter(inspect.signature(choose).parameters)) == "view"
        with pytest.raises(TypeError):
            choose(state, random.Random(0))  # type: ignore[arg-type]
    for level in BOT_LEVELS:
        with pytest.raises(TypeError):
            choose_bot_action(level, state, seed=0)  # type: ignore[arg-type]


def test_a_bot_chooses_only_for_the_seat_whose_view_it_has() -> None:
    state = position_with_a_blind_reserve()
    with pytest.raises(ValueError, match="seat"):
        choose_bot_action("greedy", engine.view(state, 1), seed=0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_bot_action("grandmaster", engine.view(state, 0), seed=0)


@pytest.mark.parametrize("level", ["search", "expert"])
def test_a_time_budget_bounds_the_search(level: str) -> None:
    seen = engine.view(position_with_a_blind_reserve(), 0)
    for budget in (0.02, 0.1):
        started = time.perf_counter()
        action = choose_bot_action(level, seen, seed=1, budget_seconds=budget)
        elapsed = time.perf_counter() - started
        assert action in engine.legal_actions(position_with_a_blind_reserve())
        assert elapsed < budget + 0.25


def test_every_level_has_a_label_and_a_description() -> None:
    assert set(BOTS) == set(BOT_LEVELS)
    for level in BOT_LEVELS:
        assert bot_label(level)
        assert bot_description(level).startswith(bot_label(level))
