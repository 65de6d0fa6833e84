"""Crowns and royal cards.

Rulebook, "Crowns": upon acquiring your 3rd crown, take 1 of the available royal cards and
resolve its ability; likewise upon your 6th. Taking a royal card is not an action. The royals:
2 points and Take, 2 points and Refresh, 2 points and Privilege, 3 points.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions
from games.engine.duel.actions import BuyCard, ChooseJokerColour, ChooseRoyal, StealToken
from games.engine.duel.state import CHOOSE_JOKER_COLOUR, CHOOSE_ROYAL, MAIN, STEAL_TOKEN
from tests.engine.duel.positions import hand, position, tokens

STEAL_ROYAL, EXTRA_TURN_ROYAL, PRIVILEGE_ROYAL, PLAIN_ROYAL = 0, 1, 2, 3
WHITE_CROWN = 3  # level 1 white, 1 crown: blue 3
BLUE_CROWN = 8  # level 1 blue, 1 crown: green 3
GREEN_CROWN = 13  # level 1 green, 1 crown: red 3
RED_CROWN = 18  # level 1 red, 1 crown: black 3
BLACK_CROWN = 23  # level 1 black, 1 crown: white 3
WHITE_THREE_CROWNS_JOKER = 64  # level 3 joker, 3 crowns: black 8


def test_the_third_crown_brings_a_choice_of_royal_cards() -> None:
    state = position(
        hands=[hand({"red": 3}, cards=[WHITE_CROWN, BLUE_CROWN], reserved=[GREEN_CROWN])]
    )
    choosing = apply_action(state, BuyCard(GREEN_CROWN))
    assert choosing.phase == CHOOSE_ROYAL
    assert choosing.current == 0
    assert set(legal_actions(choosing)) == {ChooseRoyal(royal) for royal in range(4)}
    after = apply_action(choosing, ChooseRoyal(PLAIN_ROYAL))
    assert after.players[0].royals == (PLAIN_ROYAL,)
    assert after.players[0].points == 3
    assert after.royals == (0, 1, 2)
    assert after.current == 1


def test_a_royal_card_not_on_the_table_cannot_be_chosen() -> None:
    state = position(
        hands=[
            hand({"red": 3}, cards=[WHITE_CROWN, BLUE_CROWN], reserved=[GREEN_CROWN]),
            hand(cards=[RED_CROWN, BLACK_CROWN, 33], royals=[PLAIN_ROYAL]),
        ]
    )
    choosing = apply_action(state, BuyCard(GREEN_CROWN))
    with pytest.raises(IllegalAction, match="not one of your choices"):
        apply_action(choosing, ChooseRoyal(PLAIN_ROYAL))


def test_the_sixth_crown_brings_a_second_royal_card() -> None:
    cards = [WHITE_CROWN, BLUE_CROWN, GREEN_CROWN, RED_CROWN, BLACK_CROWN]
    state = position(
        hands=[
            hand(
                {"green": 1, "red": 1, "black": 1, "pearl": 1},
                cards=cards,
                royals=[PLAIN_ROYAL],
                reserved=[33],
            )
        ]
    )
    choosing = apply_action(state, BuyCard(33))  # level 2 white, 1 crown
    assert choosing.phase == CHOOSE_ROYAL
    after = apply_action(choosing, ChooseRoyal(EXTRA_TURN_ROYAL))
    assert after.players[0].royals == (PLAIN_ROYAL, EXTRA_TURN_ROYAL)


def test_crowns_between_thresholds_bring_no_royal() -> None:
    state = position(
        hands=[
            hand(
                {"red": 3},
                cards=[WHITE_CROWN, BLUE_CROWN, 33],
                royals=[PLAIN_ROYAL],
                reserved=[GREEN_CROWN],
            )
        ]
    )
    after = apply_action(state, BuyCard(GREEN_CROWN))  # from 3 crowns to 4
    assert after.phase == MAIN
    assert after.players[0].royals == (PLAIN_ROYAL,)


def test_the_only_royal_left_is_taken_by_itself() -> None:
    state = position(
        hands=[
            hand(
                {"red": 3},
                cards=[WHITE_CROWN, BLUE_CROWN, 41, 45, 49],
                royals=[EXTRA_TURN_ROYAL],
                reserved=[GREEN_CROWN],
            ),
            hand(cards=[RED_CROWN, BLACK_CROWN, 33, 37, 54], royals=[STEAL_ROYAL, PRIVILEGE_ROYAL]),
        ],
    )
    assert state.royals == (PLAIN_ROYAL,)
    after = apply_action(state, BuyCard(GREEN_CROWN))  # the sixth crown, one royal left
    assert after.players[0].royals == (EXTRA_TURN_ROYAL, PLAIN_ROYAL)
    assert after.royals == ()
    assert after.current == 1


def test_the_privilege_royal_gives_a_privilege() -> None:
    state = position(
        hands=[hand({"red": 3}, cards=[WHITE_CROWN, BLUE_CROWN], reserved=[GREEN_CROWN])]
    )
    after = apply_action(apply_action(state, BuyCard(GREEN_CROWN)), ChooseRoyal(PRIVILEGE_ROYAL))
    assert after.players[0].privileges == 1
    assert after.players[0].points == 2


def test_the_refresh_royal_gives_another_turn() -> None:
    state = position(
        hands=[hand({"red": 3}, cards=[WHITE_CROWN, BLUE_CROWN], reserved=[GREEN_CROWN])]
    )
    after = apply_action(apply_action(state, BuyCard(GREEN_CROWN)), ChooseRoyal(EXTRA_TURN_ROYAL))
    assert after.current == 0
    assert after.phase == MAIN


def test_the_take_royal_takes_a_token_from_the_opponent() -> None:
    state = position(
        hands=[
            hand({"red": 3}, cards=[WHITE_CROWN, BLUE_CROWN], reserved=[GREEN_CROWN]),
            hand({"white": 1, "pearl": 1}),
        ]
    )
    choosing = apply_action(apply_action(state, BuyCard(GREEN_CROWN)), ChooseRoyal(STEAL_ROYAL))
    assert choosing.phase == STEAL_TOKEN
    after = apply_action(choosing, StealToken(0))
    assert after.players[0].tokens == tokens(white=1)
    assert after.current == 1


def test_the_royal_comes_after_the_jokers_colour() -> None:
    black_cards = [20, 21, 22, 24]  # four black bonuses: the joker's black 8 costs 4 tokens
    state = position(
        hands=[
            hand(
                {"black": 4}, cards=[*black_cards, BLUE_CROWN], reserved=[WHITE_THREE_CROWNS_JOKER]
            )
        ]
    )
    choosing = apply_action(state, BuyCard(WHITE_THREE_CROWNS_JOKER))
    assert choosing.phase == CHOOSE_JOKER_COLOUR
    royal = apply_action(choosing, ChooseJokerColour(1))
    assert royal.phase == CHOOSE_ROYAL
    assert royal.players[0].crowns == 4


def test_royal_cards_count_in_no_colour() -> None:
    state = position(
        hands=[hand({"red": 3}, cards=[WHITE_CROWN, BLUE_CROWN], reserved=[GREEN_CROWN])]
    )
    after = apply_action(apply_action(state, BuyCard(GREEN_CROWN)), ChooseRoyal(PLAIN_ROYAL))
    assert after.players[0].colour_points == (0, 0, 0, 0, 0)


def test_choosing_a_royal_is_refused_when_none_is_due() -> None:
    with pytest.raises(IllegalAction, match="No royal card is waiting"):
        apply_action(position(), ChooseRoyal(0))
