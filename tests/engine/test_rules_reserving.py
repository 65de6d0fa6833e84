"""Reserving a card: from the display (refilled from its deck) or unseen from a deck, with gold.

Rulebook: "A face-up development card from the 3x4 grid (immediately replace it with a new card
from the same level's deck), or the top card from any one of the three level decks". "Upon
reserving, also take 1 gold token ... If no gold tokens remain, you may still reserve a card but
receive no gold." "A player may have at most 3 reserved cards in hand". "If the corresponding deck
is empty, the empty space in the grid remains empty". "The only way to remove a reserved card from
your hand is to purchase it."
"""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalAction, State, apply_action, legal_actions
from games.engine.splendor.actions import BuyCard, ReserveCard, ReserveFromDeck
from games.engine.splendor.gems import GOLD
from games.engine.splendor.state import MAIN
from tests.engine.positions import cards_where, hand, position


def reserves(state: State) -> list[ReserveCard | ReserveFromDeck]:
    return [a for a in legal_actions(state) if isinstance(a, ReserveCard | ReserveFromDeck)]


def level_one_deck_empty() -> State:
    """The level 1 deck ran out: seat 1 bought every level 1 card but the four face up."""
    row = [0, 9, 17, 33]
    rest = [card for card in cards_where(level=1) if card not in row]
    return position(board={1: row}, hands=[hand(), hand(cards=rest)])


def test_reserving_a_face_up_card_puts_it_in_hand_with_a_gold() -> None:
    state = position(board={2: [40, 41, 42, 43]}, deck_tops={2: [60]})
    after = apply_action(state, ReserveCard(42))
    assert after.players[0].reserved == (42,)
    assert after.players[0].blind == ()
    assert after.players[0].tokens[GOLD] == 1
    assert after.supply[GOLD] == 4
    assert after.phase == MAIN
    assert after.current == 1


def test_a_reserved_face_up_card_is_replaced_in_the_same_slot_from_its_levels_deck() -> None:
    state = position(board={2: [40, 41, 42, 43]}, deck_tops={1: [30], 2: [60], 3: [85]})
    after = apply_action(state, ReserveCard(42))
    assert after.board[1] == (40, 41, 60, 43)
    assert after.decks[1] == state.decks[1][1:]
    assert after.board[0] == state.board[0]
    assert after.board[2] == state.board[2]
    assert after.decks[0] == state.decks[0]
    assert after.decks[2] == state.decks[2]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_face_up_card_of_any_level_may_be_reserved(level: int) -> None:
    state = position()
    card = state.board[level - 1][3]
    assert card is not None
    assert ReserveCard(card) in reserves(state)
    assert apply_action(state, ReserveCard(card)).players[0].reserved == (card,)


def test_a_slot_whose_deck_is_empty_stays_empty_after_a_reserve() -> None:
    state = level_one_deck_empty()
    assert state.decks[0] == ()
    after = apply_action(state, ReserveCard(9))
    assert after.board[0] == (0, None, 17, 33)
    assert after.players[0].reserved == (9,)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_reserving_from_a_deck_takes_its_top_card_unseen(level: int) -> None:
    tops = {1: 30, 2: 60, 3: 85}
    state = position(deck_tops={level: [tops[level]]})
    after = apply_action(state, ReserveFromDeck(level))
    assert after.players[0].reserved == (tops[level],)
    assert after.players[0].blind == (tops[level],)
    assert after.decks[level - 1] == state.decks[level - 1][1:]
    assert after.board == state.board
    assert after.players[0].tokens[GOLD] == 1
    assert after.supply[GOLD] == 4


def test_a_reserve_with_no_gold_left_is_allowed_and_gives_no_gold() -> None:
    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 0},
        hands=[hand({"gold": 2}), hand({"gold": 3})],
    )
    assert ReserveCard(40) in reserves(state)
    assert ReserveFromDeck(3) in reserves(state)
    after = apply_action(state, ReserveCard(40))
    assert after.players[0].reserved == (40,)
    assert after.players[0].tokens[GOLD] == 2
    assert after.supply[GOLD] == 0
    blind = apply_action(state, ReserveFromDeck(3))
    assert blind.players[0].tokens[GOLD] == 2
    assert len(blind.players[0].reserved) == 1


def test_the_last_gold_goes_to_the_reserving_player() -> None:
    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 1},
        hands=[hand(), hand({"gold": 4})],
    )
    after = apply_action(state, ReserveCard(40))
    assert after.players[0].tokens[GOLD] == 1
    assert after.supply[GOLD] == 0


def test_a_player_with_three_reserved_cards_cannot_reserve_another() -> None:
    state = position(hands=[hand(reserved=[50, 51, 80], blind=[80])])
    assert reserves(state) == []
    with pytest.raises(IllegalAction, match="3 reserved"):
        apply_action(state, ReserveCard(40))
    with pytest.raises(IllegalAction, match="3 reserved"):
        apply_action(state, ReserveFromDeck(1))


def test_a_player_with_two_reserved_cards_may_reserve_a_third() -> None:
    state = position(hands=[hand(reserved=[50, 51])])
    after = apply_action(state, ReserveFromDeck(1))
    assert len(after.players[0].reserved) == 3


def test_a_card_in_a_deck_cannot_be_reserved_by_its_id() -> None:
    state = position(deck_tops={2: [60]})
    with pytest.raises(IllegalAction, match="not face up"):
        apply_action(state, ReserveCard(60))
    assert ReserveCard(60) not in reserves(state)


def test_a_card_in_another_players_hand_cannot_be_reserved() -> None:
    state = position(hands=[hand(), hand(cards=[1], reserved=[50])])
    with pytest.raises(IllegalAction):
        apply_action(state, ReserveCard(50))
    with pytest.raises(IllegalAction):
        apply_action(state, ReserveCard(1))


def test_a_card_that_does_not_exist_cannot_be_reserved() -> None:
    with pytest.raises(IllegalAction, match="90"):
        apply_action(position(), ReserveCard(90))


def test_an_empty_deck_cannot_be_reserved_from() -> None:
    state = level_one_deck_empty()
    assert ReserveFromDeck(1) not in reserves(state)
    assert ReserveFromDeck(2) in reserves(state)
    with pytest.raises(IllegalAction, match="empty"):
        apply_action(state, ReserveFromDeck(1))


@pytest.mark.parametrize("level", [0, 4, -1])
def test_there_is_no_deck_outside_levels_one_to_three(level: int) -> None:
    with pytest.raises(IllegalAction, match="level"):
        apply_action(position(), ReserveFromDeck(level))


def test_the_state_is_unchanged_after_an_illegal_reserve() -> None:
    state = position(hands=[hand(reserved=[50, 51, 80], blind=[80])])
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        apply_action(state, ReserveCard(40))
    assert state == before


def test_a_reserved_card_leaves_the_hand_only_by_being_bought() -> None:
    state = position(hands=[hand({"white": 2, "blue": 2, "gold": 1}, reserved=[0, 50])])
    for action in legal_actions(state):
        after = apply_action(state, action)
        kept = set(after.players[0].reserved)
        if action == BuyCard(0):
            assert kept == {50}
        else:
            assert {0, 50} <= kept, action
