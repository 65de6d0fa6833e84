"""Taking a gold token and reserving a card.

Rulebook, "Take 1 Gold token and reserve 1 Jewel card": not with no gold on the board or with 3
reserved cards. First take 1 gold token of your choice, then take a card of the pyramid or draw
the top card of a deck. A card reserved from the pyramid is replaced from its deck (here at the
end of the turn, design.md); an empty deck leaves the slot empty. This is the only way to gain
gold.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, state_to_json, view
from games.engine.duel.actions import ReserveCard, ReserveFromDeck, TakeGold
from games.engine.duel.state import MAIN, RESERVE
from tests.engine.duel.positions import hand, play, position, space, tokens

BOARD = ["WBGRK", "WBGRK", "WBGRK", "WBGRK", "PPYYY"]


def test_taking_a_gold_token_asks_for_the_card_to_reserve() -> None:
    state = position(board=BOARD)
    after = apply_action(state, TakeGold(space(4, 3)))
    assert after.phase == RESERVE
    assert after.current == 0
    assert after.players[0].tokens == tokens(gold=1)
    assert after.board[space(4, 3)] == -1
    pyramid = [card for row in after.pyramid for card in row if card is not None]
    assert set(legal_actions(after)) == {ReserveCard(card) for card in pyramid} | {
        ReserveFromDeck(1),
        ReserveFromDeck(2),
        ReserveFromDeck(3),
    }


def test_reserving_a_pyramid_card_puts_it_in_hand_and_refills_its_slot_at_the_turns_end() -> None:
    state = position(board=BOARD, deck_tops={2: [40]})
    card = state.pyramid[1][2]
    after = play(state, TakeGold(space(4, 2)), ReserveCard(card))
    assert after.players[0].reserved == (card,)
    assert after.players[0].blind == ()
    assert after.pyramid[1][2] == 40
    assert after.decks[1][0] != 40
    assert after.current == 1
    assert after.phase == MAIN


def test_reserving_from_a_deck_takes_its_top_card_unseen() -> None:
    state = position(board=BOARD, deck_tops={3: [66]})
    after = play(state, TakeGold(space(4, 2)), ReserveFromDeck(3))
    assert after.players[0].reserved == (66,)
    assert after.players[0].blind == (66,)
    assert 66 not in after.decks[2]


def test_a_card_reserved_from_the_pyramid_is_not_replaced_when_its_deck_is_empty() -> None:
    # All 13 level 3 cards are out of the deck: 3 in the pyramid, the rest reserved or bought.
    state = position(
        board=BOARD,
        pyramid={3: [54, 55, 56]},
        hands=[
            hand(cards=[63, 65, 66], jokers={65: "black"}, reserved=[57, 58]),
            hand(cards=[1, 64, 62], jokers={64: "white"}, reserved=[59, 60, 61], royals=[3]),
        ],
    )
    assert state.decks[2] == ()
    after = play(state, TakeGold(space(4, 2)), ReserveCard(55))
    assert after.pyramid[2] == (54, None, 56)
    assert after.players[0].reserved == (57, 58, 55)


def test_an_empty_deck_cannot_be_reserved_from() -> None:
    state = position(
        board=BOARD,
        pyramid={3: [54, 55, 56]},
        hands=[
            hand(cards=[63, 65, 66], jokers={65: "black"}, reserved=[57, 58]),
            hand(cards=[1, 64, 62], jokers={64: "white"}, reserved=[59, 60, 61], royals=[3]),
        ],
    )
    after = apply_action(state, TakeGold(space(4, 2)))
    assert ReserveFromDeck(3) not in legal_actions(after)
    with pytest.raises(IllegalAction, match="level 3 deck is empty"):
        apply_action(after, ReserveFromDeck(3))


def test_a_fourth_reserve_is_refused() -> None:
    state = position(board=BOARD, hands=[hand(reserved=[0, 1, 2])])
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match="already hold 3 reserved"):
        apply_action(state, TakeGold(space(4, 2)))
    assert state_to_json(state) == before
    assert not [action for action in legal_actions(state) if isinstance(action, TakeGold)]


def test_no_reserve_without_gold_on_the_board() -> None:
    state = position(board=["WBGRK", "WBGRK", "WBGRK", "WBGRK", "PP..."], bag={"gold": 3})
    assert not [action for action in legal_actions(state) if isinstance(action, TakeGold)]
    with pytest.raises(IllegalAction, match="no gold token"):
        apply_action(state, TakeGold(space(4, 2)))


def test_take_gold_names_a_space_holding_gold() -> None:
    with pytest.raises(IllegalAction, match="no gold token"):
        apply_action(position(board=BOARD), TakeGold(space(0, 0)))


def test_a_card_not_in_the_pyramid_cannot_be_reserved() -> None:
    state = apply_action(position(board=BOARD), TakeGold(space(4, 2)))
    missing = next(card for card in range(67) if all(card not in row for row in state.pyramid))
    with pytest.raises(IllegalAction, match="not in the pyramid"):
        apply_action(state, ReserveCard(missing))


def test_reserving_needs_a_gold_token_first() -> None:
    state = position(board=BOARD)
    with pytest.raises(IllegalAction, match="taking a gold token"):
        apply_action(state, ReserveCard(state.pyramid[0][0]))
    with pytest.raises(IllegalAction, match="taking a gold token"):
        apply_action(state, ReserveFromDeck(1))


def test_after_taking_gold_only_a_reservation_is_possible() -> None:
    state = apply_action(position(board=BOARD), TakeGold(space(4, 2)))
    with pytest.raises(IllegalAction, match="choose the card to reserve"):
        apply_action(state, TakeGold(space(4, 3)))


def test_an_unknown_deck_level_is_refused() -> None:
    state = apply_action(position(board=BOARD), TakeGold(space(4, 2)))
    with pytest.raises(IllegalAction, match="no level 4 deck"):
        apply_action(state, ReserveFromDeck(4))


def test_a_blind_reserve_is_hidden_from_the_opponent_and_shown_to_its_owner() -> None:
    state = play(
        position(board=BOARD, deck_tops={2: [45]}), TakeGold(space(4, 2)), ReserveFromDeck(2)
    )
    assert view(state, 1)["players"][0]["reserved"] == [{"hidden": True, "level": 2}]
    assert view(state, None)["players"][0]["reserved"] == [{"hidden": True, "level": 2}]
    own = view(state, 0)["players"][0]["reserved"][0]
    assert own["id"] == 45
    assert own["blind"] is True


def test_a_card_reserved_from_the_pyramid_stays_visible_to_the_opponent() -> None:
    state = position(board=BOARD)
    card = state.pyramid[2][0]
    after = play(state, TakeGold(space(4, 2)), ReserveCard(card))
    assert view(after, 1)["players"][0]["reserved"][0]["id"] == card
