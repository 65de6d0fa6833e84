"""Every bot returns a legal action in every phase: whole games, random positions, hand-built ones.

The search bot runs on a small iteration budget here so the tests stay fast; its strength is
measured by ``benchmarks/bots.py``, not by the test run.
"""

from __future__ import annotations

import random

import pytest

import games.engine as engine
from games.bots import BOT_LEVELS
from games.engine import Action, State
from games.engine.splendor.actions import Pass
from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.state import CHOOSE_NOBLE, MAIN, RETURN_TOKENS
from games.variants import choose_bot_action
from tests.bots.positions import build_state

SEARCH_ITERATIONS = 12


def bot_action(level: str, state: State, seed: int) -> Action:
    """Ask the bot for the seat to act, giving it only that seat's view; check the answer."""
    action = choose_bot_action(
        level, engine.view(state, state.current), seed=seed, iterations=SEARCH_ITERATIONS
    )
    assert action in engine.legal_actions(state)
    return action


@pytest.mark.parametrize(
    ("seats", "seed"),
    [
        (("search", "greedy"), 1),
        (("greedy", "search"), 2),
        (("search", "search"), 3),
        (("random", "greedy", "search"), 4),
        (("search", "greedy", "greedy"), 5),
        (("search", "random", "greedy", "greedy"), 6),
        (("greedy", "search", "search", "greedy"), 7),
    ],
)
def test_bots_play_whole_games_to_the_end(seats: tuple[str, ...], seed: int) -> None:
    state = engine.initial_state(engine.new_game("splendor", len(seats), seed))
    for ply in range(2000):
        if engine.outcome(state) is not None:
            break
        state = engine.apply_action(state, bot_action(seats[state.current], state, seed + ply))
    result = engine.outcome(state)
    assert result is not None
    assert max(result.points) >= 15


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_answer_legally_in_random_positions(players: int) -> None:
    rng = random.Random(players)
    asked = {MAIN: 0, RETURN_TOKENS: 0}
    for game in range(4):
        state = engine.initial_state(engine.new_game("splendor", players, 100 + game))
        while engine.outcome(state) is None:
            if state.phase == RETURN_TOKENS or rng.random() < 0.08:
                asked[state.phase] = asked.get(state.phase, 0) + 1
                for level in BOT_LEVELS:
                    bot_action(level, state, rng.randrange(1000))
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    assert asked[MAIN] > 10
    assert asked[RETURN_TOKENS] > 3


def unaffordable_without_red_and_black(level: int, count: int) -> list[int]:
    return [c.id for c in CARDS if c.level == level and c.cost[3] + c.cost[4] > 0][:count]


def test_bots_pass_when_nothing_else_is_legal() -> None:
    state = build_state(
        hands=[
            {
                "tokens": {"white": 4, "blue": 4, "green": 2},
                "reserved": unaffordable_without_red_and_black(3, 7)[4:7],
                "blind": unaffordable_without_red_and_black(3, 7)[5:6],
            },
            {"tokens": {"green": 2, "red": 4, "black": 4}},
        ],
        board=[unaffordable_without_red_and_black(level, 4) for level in (1, 2, 3)],
        nobles=[0, 1, 2],
    )
    assert engine.legal_actions(state) == [Pass()]
    for level in BOT_LEVELS:
        assert bot_action(level, state, 3) == Pass()


def test_bots_choose_one_of_the_waiting_nobles() -> None:
    white, blue, green = ([c.id for c in CARDS if c.level == 1 and c.colour == k] for k in range(3))
    state = build_state(
        hands=[
            {"tokens": {"red": 1}, "cards": white[:4] + blue[:4] + green[:3]},
            {"tokens": {"black": 2}},
        ],
        board=[white[4:8], [40, 41, 42, 43], [70, 71, 72, 73]],
        nobles=[0, 5, 9],
        phase=CHOOSE_NOBLE,
        pending=(0, 5),
    )
    for level in BOT_LEVELS:
        for seed in range(3):
            assert bot_action(level, state, seed) in engine.legal_actions(state)


def test_bots_return_exactly_the_excess_tokens() -> None:
    state = build_state(
        hands=[
            {"tokens": {"white": 3, "blue": 3, "green": 3, "red": 1, "gold": 3}},
            {"tokens": {}},
        ],
        board=[[0, 1, 2, 3], [40, 41, 42, 43], [70, 71, 72, 73]],
        nobles=[0, 5, 9],
        phase=RETURN_TOKENS,
    )
    for level in BOT_LEVELS:
        action = bot_action(level, state, 1)
        assert sum(action.tokens) == 3  # type: ignore[union-attr]
