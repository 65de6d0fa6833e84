"""Moves judged from the mover's view only: the search's determinisation, never a hidden card."""

from __future__ import annotations

import random
from typing import Any

import pytest

from analysis.budget import BLUNDER, INACCURACY, MISTAKE, mark_for
from analysis.evaluation import judge_game, judge_move
from games import engine
from games.variants import game_for
from games.variants.base import NETWORK_SETTING

BUDGET = {"iterations": 40}
DUEL_BUDGET = {"samples": 1}


def _gems_only_line(state: engine.State, moves: int, rng: random.Random) -> list[dict[str, Any]]:
    """``moves`` actions that take or return tokens only, so they stay legal whatever card
    a player holds unseen."""
    line = []
    for _ in range(moves):
        legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
        quiet = [a for a in legal if a["type"] in ("take_gems", "return_tokens")]
        action = rng.choice(quiet)
        line.append(action)
        state = engine.apply_legal(state, engine.action_from_json(action, "splendor"))
    return line


def _fold(setup: engine.Setup, actions: list[dict[str, Any]]) -> list[engine.State]:
    states = [engine.initial_state(setup)]
    for action in actions:
        states.append(engine.apply_legal(states[-1], engine.action_from_json(action, "splendor")))
    return states


@pytest.mark.parametrize("judged_by", ["hand-set evaluation", "network"])
def test_an_analysis_of_the_other_players_moves_never_depends_on_a_blind_reserve(
    judged_by: str,
) -> None:
    """Two games alike but for the card seat 0 reserved unseen from the deck: every move of
    seat 1 is judged the same in both, so the analysis never read that card, whether the
    hand-set evaluation judges or the Expert's network (the installed one)."""
    budget = BUDGET
    if judged_by == "network":
        budget = game_for("splendor").position_judge.settings(scale=0.1)
        assert NETWORK_SETTING in budget
    setup = engine.new_game("splendor", 2, 11)
    deck = list(setup.decks[0])
    hidden, untouched = deck[4], deck[-1]  # the top of the deck once the board is dealt
    deck[4], deck[-1] = untouched, hidden
    other = setup._replace(decks=(tuple(deck), *setup.decks[1:]))
    first = [{"type": "reserve_from_deck", "level": 1}]
    after_reserve = engine.apply_legal(
        engine.initial_state(setup), engine.action_from_json(first[0], "splendor")
    )
    actions = first + _gems_only_line(after_reserve, 12, random.Random(3))
    this_game, that_game = _fold(setup, actions), _fold(other, actions)
    assert this_game[1].players[0].reserved != that_game[1].players[0].reserved

    judged = judge_game("splendor", this_game, actions, seed=7, budget=budget)
    judged_other = judge_game("splendor", that_game, actions, seed=7, budget=budget)

    seat_one = [move for move in judged if move.mover == 1]
    assert len(seat_one) >= 5
    assert seat_one == [move for move in judged_other if move.mover == 1]


def test_a_judged_move_is_reproducible_from_its_seed_and_depends_on_it() -> None:
    state = engine.initial_state(engine.new_game("splendor", 3, 2))
    played = engine.action_to_json(engine.legal_actions(state)[0])
    runs = [
        judge_move("splendor", state, played, step=1, seed=seed, budget={"iterations": 60})
        for seed in (5, 5, 6)
    ]
    assert runs[0] == runs[1]
    assert (runs[0].before, runs[0].after) != (runs[2].before, runs[2].after)


def test_a_judged_move_gives_chances_and_a_preferred_move_of_the_game() -> None:
    state = engine.initial_state(engine.new_game("splendor", 2, 4))
    played = {"type": "reserve_from_deck", "level": 3}
    move = judge_move("splendor", state, played, step=1, seed=1, budget={"iterations": 120})
    assert move.mover == engine.acting_seat(state)
    assert 0.0 <= move.after <= 1.0
    assert 0.0 <= move.before <= 1.0
    assert engine.action_from_json(move.preferred, "splendor") in engine.legal_actions(state)
    assert move.drop == pytest.approx(max(0.0, move.before - move.after))


def test_duel_moves_are_judged_from_the_movers_view() -> None:
    setup = engine.new_game("duel", 2, 9)
    states = [engine.initial_state(setup)]
    actions: list[dict[str, Any] | None] = []
    rng = random.Random(2)
    for _ in range(6):
        action = rng.choice(engine.legal_actions(states[-1]))
        actions.append(engine.action_to_json(action))
        states.append(engine.apply_legal(states[-1], action))
    judged = judge_game("duel", states, actions, seed=3, budget=DUEL_BUDGET)
    assert [move.step for move in judged] == [1, 2, 3, 4, 5, 6]
    for move, state in zip(judged, states, strict=False):
        assert move.mover == engine.acting_seat(state)
        assert 0.0 <= move.after <= 1.0
        assert engine.action_from_json(move.preferred, "duel") in engine.legal_actions(state)


def test_steps_that_are_no_move_are_neither_judged_nor_counted() -> None:
    state = engine.initial_state(engine.new_game("splendor", 2, 1))
    action = engine.action_to_json(engine.legal_actions(state)[0])
    after = engine.apply_legal(state, engine.action_from_json(action, "splendor"))
    seen: list[int] = []
    judged = judge_game(
        "splendor",
        [state, after, after],
        [action, None],
        seed=1,
        budget=BUDGET,
        progress=seen.append,
    )
    assert [move.step for move in judged] == [1]
    assert seen == [1]


@pytest.mark.parametrize(
    ("drop", "mark"),
    [
        (0.0, None),
        (INACCURACY - 0.01, None),
        (INACCURACY, "inaccuracy"),
        (MISTAKE, "mistake"),
        (BLUNDER, "blunder"),
        (0.9, "blunder"),
    ],
)
def test_marks_follow_the_documented_thresholds(drop: float, mark: str | None) -> None:
    assert mark_for(drop) == mark
