"""The ten-token limit: above ten at the end of the action, the player returns the excess.

Rulebook: "A player may never have more than 10 tokens (including gold) at the end of their turn.
If taking tokens causes a player to exceed 10, they must immediately return tokens of their choice
to the supply until they have exactly 10. A player may return tokens they just took." Design:
"the player returns exactly the excess, any tokens, gold and just-taken ones included"; returning
is its own action, announced by the phase.
"""

from __future__ import annotations

import copy
from itertools import product

import pytest

from games.engine import IllegalAction, State, apply_action, legal_actions, view
from games.engine.splendor.actions import ChooseNoble, Pass, ReserveCard, ReturnTokens
from games.engine.splendor.state import MAIN, RETURN_TOKENS
from tests.engine.positions import hand, play, position, take, tokens


def nine_tokens(gold: int = 0) -> State:
    """Seat 0 holds nine tokens (gold among them if asked) and the supply has every colour."""
    held = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 1 - gold, "gold": gold}
    return position(hands=[hand(held)])


def twelve_tokens() -> State:
    """Seat 0 took three tokens holding nine: white 3, blue 3, green 3, red 2, black 1."""
    return apply_action(nine_tokens(), take("white", "blue", "green"))


def test_more_than_ten_tokens_after_taking_calls_for_a_return() -> None:
    state = twelve_tokens()
    assert state.phase == RETURN_TOKENS
    assert state.current == 0
    assert sum(state.players[0].tokens) == 12
    assert view(state, 0)["tokens_to_return"] == 2


def test_more_than_ten_tokens_after_taking_two_of_a_colour_calls_for_a_return() -> None:
    held = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 1}
    state = apply_action(position(3, hands=[hand(held)]), take("black", "black"))
    assert state.phase == RETURN_TOKENS
    assert sum(state.players[0].tokens) == 11


def test_the_gold_from_a_reserve_can_take_a_player_over_ten() -> None:
    state = position(hands=[hand({"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2})])
    after = apply_action(state, ReserveCard(40))
    assert after.phase == RETURN_TOKENS
    assert sum(after.players[0].tokens) == 11


def test_a_reserve_with_no_gold_left_needs_no_return_at_ten_tokens() -> None:
    state = position(
        supply={"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2, "gold": 0},
        hands=[
            hand({"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}),
            hand({"white": 0, "gold": 5}),
        ],
    )
    after = apply_action(state, ReserveCard(40))
    assert after.phase == MAIN
    assert after.current == 1


def test_exactly_ten_tokens_need_no_return() -> None:
    state = position(hands=[hand({"white": 2, "blue": 2, "green": 2, "red": 1})])
    after = apply_action(state, take("white", "blue", "black"))
    assert sum(after.players[0].tokens) == 10
    assert after.phase == MAIN
    assert after.current == 1


def test_returning_exactly_the_excess_ends_the_turn() -> None:
    state = twelve_tokens()
    after = apply_action(state, ReturnTokens(tokens(red=2)))
    assert after.players[0].tokens == tokens(white=3, blue=3, green=3, black=1)
    assert after.supply == tuple(
        left + back for left, back in zip(state.supply, tokens(red=2), strict=True)
    )
    assert after.phase == MAIN
    assert after.current == 1


def test_tokens_just_taken_may_be_returned() -> None:
    after = apply_action(twelve_tokens(), ReturnTokens(tokens(white=1, green=1)))
    assert after.players[0].tokens == tokens(white=2, blue=3, green=2, red=2, black=1)
    assert after.current == 1


def test_gold_may_be_returned() -> None:
    state = apply_action(nine_tokens(gold=1), take("white", "blue", "black"))
    assert sum(state.players[0].tokens) == 12
    after = apply_action(state, ReturnTokens(tokens(black=1, gold=1)))
    assert after.players[0].tokens == tokens(white=3, blue=3, green=2, red=2)
    assert after.supply[5] == 5


def test_the_gold_just_taken_with_a_reserve_may_be_returned() -> None:
    state = position(hands=[hand({"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2})])
    after = play(state, ReserveCard(40), ReturnTokens(tokens(gold=1)))
    assert after.players[0].tokens == tokens(white=2, blue=2, green=2, red=2, black=2)
    assert after.players[0].reserved == (40,)
    assert after.supply[5] == 5


def test_returning_too_few_tokens_is_refused() -> None:
    with pytest.raises(IllegalAction, match="exactly 2"):
        apply_action(twelve_tokens(), ReturnTokens(tokens(red=1)))


def test_returning_too_many_tokens_is_refused() -> None:
    with pytest.raises(IllegalAction, match="exactly 2"):
        apply_action(twelve_tokens(), ReturnTokens(tokens(red=2, white=1)))


def test_returning_a_colour_the_player_does_not_hold_is_refused() -> None:
    with pytest.raises(IllegalAction, match="gold"):
        apply_action(twelve_tokens(), ReturnTokens(tokens(gold=2)))
    with pytest.raises(IllegalAction, match="black"):
        apply_action(twelve_tokens(), ReturnTokens(tokens(black=2)))


def test_returning_a_negative_count_is_refused() -> None:
    with pytest.raises(IllegalAction):
        apply_action(twelve_tokens(), ReturnTokens((3, 0, 0, 0, -1, 0)))


def test_the_legal_returns_are_exactly_every_way_to_give_back_the_excess() -> None:
    state = twelve_tokens()
    held = state.players[0].tokens
    expected = {
        ReturnTokens(counts)
        for counts in product(*(range(count + 1) for count in held))
        if sum(counts) == 2
    }
    actions = legal_actions(state)
    assert len(actions) == len(set(actions))
    assert set(actions) == expected
    for action in actions:
        assert apply_action(state, action).phase == MAIN


def test_nothing_but_a_return_is_allowed_while_tokens_are_due() -> None:
    state = twelve_tokens()
    for action in (take("red", "black"), ReserveCard(40), Pass(), ChooseNoble(0)):
        with pytest.raises(IllegalAction, match="return 2"):
            apply_action(state, action)


def test_a_return_is_refused_when_no_tokens_are_due() -> None:
    with pytest.raises(IllegalAction, match="no tokens to return"):
        apply_action(nine_tokens(), ReturnTokens(tokens(red=1)))


def test_the_state_is_unchanged_after_an_illegal_return() -> None:
    state = twelve_tokens()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        apply_action(state, ReturnTokens(tokens(red=1)))
    assert state == before
