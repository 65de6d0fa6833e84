"""Card abilities, resolved as soon as the card is bought.

Rulebook, "Card abilities": Refresh: take another turn immediately after this one ends. Gem: take
1 token matching the card's colour from the board; with none left, ignore it. Privilege: take 1
privilege; with none available, take 1 from the opponent. Take: take 1 gem or pearl token from
the opponent; if they have none, ignore it; never gold. A choice is its own decision; an ability
with a single option applies by itself (docs/decisions/0044-duel-decisions-and-turn-order.md).
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, state_to_json
from games.engine.duel.actions import (
    BuyCard,
    ChooseJokerColour,
    StealToken,
    TakeMatchingToken,
    TakeTokens,
)
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    MAIN,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
)
from tests.engine.duel.positions import hand, position, space, tokens

WHITE_EXTRA_TURN = 2  # blue 2, green 2, pearl 1
WHITE_GEM = 0  # take a white token; red 2, black 2
WHITE_PRIVILEGE = 32  # level 2, 2 points; white 4, black 2, pearl 1
WHITE_STEAL = 30  # level 2, 1 point; blue 4, red 3
JOKER_EXTRA_TURN = 65  # level 3 joker, 3 points; red 8
BLUE_CARD = 5
GREEN_CARD = 10


def test_refresh_gives_the_same_player_another_turn() -> None:
    state = position(hands=[hand({"blue": 2, "green": 2, "pearl": 1}, reserved=[WHITE_EXTRA_TURN])])
    after = apply_action(state, BuyCard(WHITE_EXTRA_TURN))
    assert after.current == 0
    assert after.phase == MAIN
    assert after.turn == 1
    assert after.extra_turn is False
    take = next(action for action in legal_actions(after) if isinstance(action, TakeTokens))
    then = apply_action(after, take)
    assert then.current == 1


def test_the_gem_ability_asks_which_token_of_the_cards_colour_to_take() -> None:
    board = ["W...W", ".....", "..B..", ".....", "W...."]
    state = position(board=board, hands=[hand({"red": 2, "black": 2}, reserved=[WHITE_GEM])])
    choosing = apply_action(state, BuyCard(WHITE_GEM))
    assert choosing.phase == TAKE_MATCHING_TOKEN
    assert set(legal_actions(choosing)) == {
        TakeMatchingToken(space(0, 0)),
        TakeMatchingToken(space(0, 4)),
        TakeMatchingToken(space(4, 0)),
    }
    after = apply_action(choosing, TakeMatchingToken(space(0, 4)))
    assert after.players[0].tokens == tokens(white=1)
    assert after.board[space(0, 4)] == -1
    assert after.current == 1


def test_the_gem_ability_refuses_a_token_of_another_colour() -> None:
    board = ["W...W", ".....", "..B..", ".....", "....."]
    state = position(board=board, hands=[hand({"red": 2, "black": 2}, reserved=[WHITE_GEM])])
    choosing = apply_action(state, BuyCard(WHITE_GEM))
    before = state_to_json(choosing)
    with pytest.raises(IllegalAction, match="takes a white token"):
        apply_action(choosing, TakeMatchingToken(space(2, 2)))
    assert state_to_json(choosing) == before


def test_the_gem_ability_takes_the_only_matching_token_by_itself() -> None:
    board = [".....", ".....", "..W..", ".....", "....."]
    state = position(board=board, hands=[hand({"red": 2, "black": 2}, reserved=[WHITE_GEM])])
    after = apply_action(state, BuyCard(WHITE_GEM))
    assert after.players[0].tokens == tokens(white=1)
    assert after.current == 1


def test_the_gem_ability_is_ignored_when_no_token_of_the_colour_is_on_the_board() -> None:
    board = [".....", ".....", "..B..", ".....", "....."]
    state = position(board=board, hands=[hand({"red": 2, "black": 2}, reserved=[WHITE_GEM])])
    after = apply_action(state, BuyCard(WHITE_GEM))
    assert after.players[0].tokens == tokens()
    assert after.current == 1


def test_the_privilege_ability_takes_a_privilege_from_the_table() -> None:
    state = position(hands=[hand({"white": 4, "black": 2, "pearl": 1}, reserved=[WHITE_PRIVILEGE])])
    after = apply_action(state, BuyCard(WHITE_PRIVILEGE))
    assert after.players[0].privileges == 1


def test_the_privilege_ability_takes_from_the_opponent_when_none_is_left() -> None:
    state = position(
        hands=[
            hand({"white": 4, "black": 2, "pearl": 1}, privileges=1, reserved=[WHITE_PRIVILEGE]),
            hand(privileges=2),
        ]
    )
    after = apply_action(state, BuyCard(WHITE_PRIVILEGE))
    assert [player.privileges for player in after.players] == [2, 1]


def test_the_privilege_ability_does_nothing_for_a_player_holding_all_three() -> None:
    state = position(
        hands=[hand({"white": 4, "black": 2, "pearl": 1}, privileges=3, reserved=[WHITE_PRIVILEGE])]
    )
    after = apply_action(state, BuyCard(WHITE_PRIVILEGE))
    assert after.players[0].privileges == 3


def test_the_take_ability_asks_which_of_the_opponents_colours_to_take() -> None:
    state = position(
        hands=[
            hand({"blue": 4, "red": 3}, reserved=[WHITE_STEAL]),
            hand({"green": 1, "pearl": 1, "gold": 2}),
        ]
    )
    choosing = apply_action(state, BuyCard(WHITE_STEAL))
    assert choosing.phase == STEAL_TOKEN
    assert set(legal_actions(choosing)) == {StealToken(2), StealToken(5)}
    after = apply_action(choosing, StealToken(5))
    assert after.players[0].tokens == tokens(pearl=1)
    assert after.players[1].tokens == tokens(green=1, gold=2)


def test_the_take_ability_never_takes_gold() -> None:
    state = position(
        hands=[
            hand({"blue": 4, "red": 3}, reserved=[WHITE_STEAL]),
            hand({"green": 1, "pearl": 1, "gold": 2}),
        ]
    )
    choosing = apply_action(state, BuyCard(WHITE_STEAL))
    with pytest.raises(IllegalAction, match="gold token cannot be taken"):
        apply_action(choosing, StealToken(6))
    with pytest.raises(IllegalAction, match="no white"):
        apply_action(choosing, StealToken(0))


def test_the_take_ability_takes_the_only_colour_by_itself() -> None:
    state = position(
        hands=[hand({"blue": 4, "red": 3}, reserved=[WHITE_STEAL]), hand({"green": 2, "gold": 1})]
    )
    after = apply_action(state, BuyCard(WHITE_STEAL))
    assert after.players[0].tokens == tokens(green=1)
    assert after.players[1].tokens == tokens(green=1, gold=1)
    assert after.current == 1


def test_the_take_ability_is_ignored_when_the_opponent_has_only_gold() -> None:
    state = position(hands=[hand({"blue": 4, "red": 3}, reserved=[WHITE_STEAL]), hand({"gold": 2})])
    after = apply_action(state, BuyCard(WHITE_STEAL))
    assert after.players[0].tokens == tokens()
    assert after.players[1].tokens == tokens(gold=2)
    assert after.current == 1


def test_a_jokers_colour_is_chosen_before_its_ability_applies() -> None:
    red_cards = [15, 16, 17, 19]  # four red bonuses: the joker's red 8 costs 4 tokens
    state = position(
        hands=[hand({"red": 4}, cards=[*red_cards, BLUE_CARD], reserved=[JOKER_EXTRA_TURN])]
    )
    choosing = apply_action(state, BuyCard(JOKER_EXTRA_TURN))
    assert choosing.phase == CHOOSE_JOKER_COLOUR
    after = apply_action(choosing, ChooseJokerColour(1))
    assert after.players[0].colour_points == (0, 3, 0, 1, 0)
    assert after.current == 0  # Refresh: another turn


def test_sub_decisions_refuse_every_other_action() -> None:
    board = ["W...W", ".....", "..B..", ".....", "....."]
    state = position(board=board, hands=[hand({"red": 2, "black": 2}, reserved=[WHITE_GEM])])
    choosing = apply_action(state, BuyCard(WHITE_GEM))
    with pytest.raises(IllegalAction, match="First take the token"):
        apply_action(choosing, StealToken(0))
    with pytest.raises(IllegalAction, match="No ability lets you take a token from your opponent"):
        apply_action(state, StealToken(0))
    with pytest.raises(IllegalAction, match="No card ability lets you take a token"):
        apply_action(state, TakeMatchingToken(0))
    with pytest.raises(IllegalAction, match="No joker card"):
        apply_action(state, ChooseJokerColour(0))
