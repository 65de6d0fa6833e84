"""The end of a turn: discard down to ten, check victory, refill the pyramid.

Rulebook, "End of player turn": with more than 10 tokens, discard down to 10 (your choice) into
the bag; then check the three victory conditions: 20 or more prestige points, 10 or more crowns,
or 10 or more points on cards of one colour (a card counts in the colour it is grouped with).
Fulfilling one ends the game at once. Design: the pyramid is refilled at the end of the turn and
victory is checked after discarding.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, outcome, state_to_json
from games.engine.duel.actions import BuyCard, ChooseJokerColour, DiscardTokens, UsePrivilege
from games.engine.duel.state import CHOOSE_JOKER_COLOUR, DISCARD_TOKENS, GAME_OVER, MAIN
from tests.engine.duel.positions import hand, line, play, position, space, tokens

FOURS = [55, 57, 59, 61]  # level 3, 4 points each in white, blue, green, red; no crowns
FIVE_POINTS_NO_BONUS = 53  # blue 6, pearl 1
THREE_POINT_CROWNS = [54, 56, 58, 60]  # level 3, 3 points and 2 crowns each
WHITE_CROWN = 3
BLUE_CROWN = 8  # green 3
WHITE_POINT = 4
WHITE_PRIVILEGE = 32  # 2 points; white 4, black 2, pearl 1


def test_more_than_ten_tokens_must_be_discarded_at_the_end_of_the_turn() -> None:
    state = position(
        board=["WBG..", ".....", ".....", ".....", "....."], hands=[hand({"red": 4, "black": 4})]
    )
    after = apply_action(state, line((0, 0), (0, 1), (0, 2)))
    assert after.phase == DISCARD_TOKENS
    assert after.current == 0
    assert len(legal_actions(after)) == len({action.tokens for action in legal_actions(after)})
    assert all(sum(action.tokens) == 1 for action in legal_actions(after))
    done = apply_action(after, DiscardTokens(tokens(red=1)))
    assert done.players[0].tokens == tokens(white=1, blue=1, green=1, red=3, black=4)
    assert done.bag[3] == state.bag[3] + 1
    assert done.current == 1
    assert done.phase == MAIN


def test_a_discard_must_be_exactly_the_excess_of_tokens_held() -> None:
    state = position(
        board=["WBG..", ".....", ".....", ".....", "....."], hands=[hand({"red": 4, "black": 4})]
    )
    discarding = apply_action(state, line((0, 0), (0, 1), (0, 2)))
    before = state_to_json(discarding)
    with pytest.raises(IllegalAction, match="exactly 1"):
        apply_action(discarding, DiscardTokens(tokens(red=2)))
    with pytest.raises(IllegalAction, match="only 0 gold"):
        apply_action(discarding, DiscardTokens(tokens(gold=1)))
    with pytest.raises(IllegalAction, match="First put back 1"):
        apply_action(
            discarding,
            line(
                (1, 0),
            ),
        )
    assert state_to_json(discarding) == before


def test_discarding_is_refused_with_ten_tokens_or_fewer() -> None:
    with pytest.raises(IllegalAction, match="no tokens to put back"):
        apply_action(position(), DiscardTokens(tokens(white=1)))


def test_twenty_points_win() -> None:
    state = position(
        hands=[
            hand({"blue": 4, "pearl": 1, "gold": 1}, cards=FOURS, reserved=[FIVE_POINTS_NO_BONUS])
        ]
    )
    over = apply_action(state, BuyCard(FIVE_POINTS_NO_BONUS))
    assert over.phase == GAME_OVER
    result = outcome(over)
    assert result is not None
    assert result.winners == (0,)
    assert result.ended_by == "twenty_points"
    assert result.points == (21, 0)


def test_ten_crowns_win() -> None:
    state = position(
        hands=[
            hand(
                {"green": 2},
                cards=[*THREE_POINT_CROWNS, WHITE_CROWN],
                royals=[2, 3],
                reserved=[BLUE_CROWN],
            )
        ]
    )
    assert state.players[0].crowns == 9
    over = apply_action(state, BuyCard(BLUE_CROWN))
    result = outcome(over)
    assert result is not None
    assert result.winners == (0,)
    assert result.ended_by == "ten_crowns"


def test_ten_points_in_one_colour_win() -> None:
    held = {"white": 1, "black": 2, "pearl": 1}
    state = position(hands=[hand(held, cards=[55, 54, WHITE_POINT], reserved=[WHITE_PRIVILEGE])])
    assert state.players[0].colour_points == (8, 0, 0, 0, 0)
    over = apply_action(state, BuyCard(WHITE_PRIVILEGE))
    result = outcome(over)
    assert result is not None
    assert result.winners == (0,)
    assert result.ended_by == "ten_points_in_a_colour"


def test_a_jokers_points_count_in_the_colour_it_joins() -> None:
    blue = [57, 34, 36]  # 4 + 1 + 2 blue points
    red = [15, 16, 17, 19]  # four red bonuses for the joker's red 8
    state = position(hands=[hand({"red": 4}, cards=[*blue, *red], reserved=[65])])
    choosing = apply_action(state, BuyCard(65))  # level 3 joker, 3 points
    assert choosing.phase == CHOOSE_JOKER_COLOUR
    over = apply_action(choosing, ChooseJokerColour(1))
    result = outcome(over)
    assert result is not None
    assert result.ended_by == "ten_points_in_a_colour"
    not_over = apply_action(choosing, ChooseJokerColour(3))
    assert outcome(not_over) is None


def test_victory_is_checked_only_after_discarding() -> None:
    # Mid-turn with 15 tokens (privileges spent); the purchase wins, but 11 are left to hold.
    held = {"white": 1, "black": 2, "pearl": 2, "red": 4, "green": 4, "blue": 2}
    state = position(hands=[hand(held, cards=[55, 54, WHITE_POINT], reserved=[WHITE_PRIVILEGE])])
    discarding = apply_action(state, BuyCard(WHITE_PRIVILEGE))
    assert discarding.phase == DISCARD_TOKENS
    assert outcome(discarding) is None
    over = apply_action(discarding, DiscardTokens(tokens(red=1)))
    result = outcome(over)
    assert result is not None
    assert result.winners == (0,)


def test_the_game_ends_at_once_without_refilling_or_passing_the_turn() -> None:
    state = position(
        pyramid={2: [FIVE_POINTS_NO_BONUS]},
        hands=[hand({"blue": 4, "pearl": 1, "gold": 1}, cards=FOURS)],
    )
    over = apply_action(state, BuyCard(FIVE_POINTS_NO_BONUS))
    assert over.phase == GAME_OVER
    assert over.pyramid[1][0] is None
    assert over.current == 0
    assert legal_actions(over) == []
    with pytest.raises(IllegalAction, match="game is over"):
        apply_action(over, UsePrivilege(space(0, 0)))


def test_the_pyramid_is_refilled_at_the_end_of_the_turn_not_before() -> None:
    state = position(
        pyramid={1: [26]},
        deck_tops={1: [7]},
        hands=[hand({"black": 4, "pearl": 1}, cards=[5, 10])],
    )
    choosing = apply_action(state, BuyCard(26))  # a joker: the colour is chosen next
    assert choosing.phase == CHOOSE_JOKER_COLOUR
    assert choosing.pyramid[0][0] is None
    after = apply_action(choosing, ChooseJokerColour(1))
    assert after.pyramid[0][0] == 7


def test_the_game_is_played_to_the_end_turn_by_turn() -> None:
    state = play(position(), line((0, 0)), line((0, 1)))
    assert state.turn == 2
    assert state.current == 0
