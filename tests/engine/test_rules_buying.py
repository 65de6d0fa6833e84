"""Buying a card: bonuses first, then tokens, with gold standing in for any colour.

Rulebook: "Each bonus ... acts as a permanent gem of that color ... if a card costs 2 blue and 1
green, and you have 2 blue bonuses, you only need to spend 1 green token." "Gold tokens (jokers)
can substitute for any single gem token. Spent gold tokens are returned to the supply." "If you
have enough bonuses, you can purchase a card without spending any tokens at all." "Reserved cards
may only be purchased by the player who reserved them." FAQ: "Can I use Gold to pay for a card
even if I have the required gem? Yes." Design: without an explicit payment the engine pays
coloured tokens first, then gold.
"""

from __future__ import annotations

import copy
import re
from itertools import product

import pytest

from games.engine import IllegalAction, State, apply_action, legal_actions, payment_options
from games.engine.splendor.actions import BuyCard
from games.engine.splendor.gems import GOLD
from games.engine.splendor.state import MAIN
from tests.engine.positions import (
    card_where,
    cards_where,
    cost_of,
    hand,
    points_of,
    position,
    tokens,
)

# The rulebook's example card: 2 blue and 1 green.
EXAMPLE = card_where(level=1, cost={"blue": 2, "green": 1})
BLUE_CARDS = cards_where(level=1, colour="blue", points=0)
GREEN_CARDS = cards_where(level=1, colour="green", points=0)


def buys(state: State) -> set[BuyCard]:
    return {action for action in legal_actions(state) if isinstance(action, BuyCard)}


def example_on_board(held: dict[str, int], owned: tuple[int, ...] = ()) -> State:
    """The example card face up in slot 2 of level 1, seat 0 to buy it."""
    return position(
        board={1: [0, EXAMPLE, 1, 2]},
        deck_tops={1: [30]},
        hands=[hand(held, cards=owned)],
    )


def test_the_example_card_costs_two_blue_and_one_green() -> None:
    assert cost_of(EXAMPLE) == {"blue": 2, "green": 1}


def test_buying_pays_the_cost_in_tokens() -> None:
    state = example_on_board({"blue": 2, "green": 1, "red": 1})
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens(red=1)
    assert after.players[0].cards == (EXAMPLE,)
    assert after.phase == MAIN
    assert after.current == 1


def test_bonuses_reduce_the_cost() -> None:
    state = example_on_board({"green": 1, "blue": 1}, owned=tuple(BLUE_CARDS[:2]))
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens(blue=1)
    assert after.supply == (*state.supply[:2], state.supply[2] + 1, *state.supply[3:])


def test_bonuses_beyond_the_cost_give_no_change() -> None:
    state = example_on_board({"green": 1}, owned=tuple(BLUE_CARDS[:3]))
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens()
    assert sum(after.supply) == sum(state.supply) + 1


def test_bonuses_alone_can_buy_a_card_without_spending_tokens() -> None:
    owned = (*BLUE_CARDS[:2], GREEN_CARDS[0])
    state = example_on_board({"green": 1, "gold": 1}, owned=owned)
    assert BuyCard(EXAMPLE) in buys(state)
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens(green=1, gold=1)
    assert after.supply == state.supply
    explicit = apply_action(state, BuyCard(EXAMPLE, tokens()))
    assert explicit.players[0].tokens == tokens(green=1, gold=1)


def test_gold_substitutes_for_a_missing_colour() -> None:
    state = example_on_board({"blue": 2, "gold": 1})
    assert BuyCard(EXAMPLE) in buys(state)
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens()
    assert after.supply[GOLD] == state.supply[GOLD] + 1


def test_gold_substitutes_for_every_token_of_a_cost() -> None:
    state = example_on_board({"gold": 3})
    after = apply_action(state, BuyCard(EXAMPLE, tokens(gold=3)))
    assert after.players[0].cards == (EXAMPLE,)
    assert after.players[0].tokens == tokens()


def test_gold_may_pay_even_while_holding_the_colour() -> None:
    state = example_on_board({"blue": 2, "green": 1, "gold": 1})
    after = apply_action(state, BuyCard(EXAMPLE, tokens(blue=2, gold=1)))
    assert after.players[0].tokens == tokens(green=1)
    after = apply_action(state, BuyCard(EXAMPLE, tokens(blue=1, green=1, gold=1)))
    assert after.players[0].tokens == tokens(blue=1)


def test_without_a_payment_coloured_tokens_are_spent_before_gold() -> None:
    state = example_on_board({"blue": 2, "green": 1, "gold": 2})
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens(gold=2)


def test_without_a_payment_gold_covers_only_what_the_colours_lack() -> None:
    state = example_on_board({"blue": 1, "green": 1, "gold": 2})
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].tokens == tokens(gold=1)


def test_overpaying_a_colour_is_refused() -> None:
    state = example_on_board({"blue": 3, "green": 1})
    with pytest.raises(IllegalAction, match="too much blue"):
        apply_action(state, BuyCard(EXAMPLE, tokens(blue=3, green=1)))


def test_overpaying_with_gold_is_refused() -> None:
    state = example_on_board({"blue": 2, "green": 1, "gold": 1})
    with pytest.raises(IllegalAction, match="gold"):
        apply_action(state, BuyCard(EXAMPLE, tokens(blue=2, green=1, gold=1)))


def test_underpaying_is_refused() -> None:
    state = example_on_board({"blue": 2, "green": 1, "gold": 1})
    with pytest.raises(IllegalAction, match="gold"):
        apply_action(state, BuyCard(EXAMPLE, tokens(blue=2)))


def test_paying_a_colour_of_the_card_with_another_colour_is_refused() -> None:
    state = example_on_board({"blue": 2, "red": 1})
    with pytest.raises(IllegalAction, match="red"):
        apply_action(state, BuyCard(EXAMPLE, tokens(blue=2, red=1)))


def test_paying_with_tokens_not_held_is_refused() -> None:
    state = example_on_board({"blue": 2, "gold": 1})
    with pytest.raises(IllegalAction, match="green"):
        apply_action(state, BuyCard(EXAMPLE, tokens(blue=2, green=1)))


def test_a_payment_with_a_negative_count_is_refused() -> None:
    state = example_on_board({"blue": 3, "green": 1})
    with pytest.raises(IllegalAction):
        apply_action(state, BuyCard(EXAMPLE, (0, 3, 1, 0, 0, -1)))


def test_a_card_the_player_cannot_afford_is_refused_and_not_offered() -> None:
    state = example_on_board({"blue": 2})
    assert BuyCard(EXAMPLE) not in buys(state)
    with pytest.raises(IllegalAction, match="afford"):
        apply_action(state, BuyCard(EXAMPLE))


def test_every_exact_payment_is_offered_and_accepted() -> None:
    state = example_on_board({"blue": 2, "green": 1, "gold": 2})
    held = state.players[0].tokens
    exact = {
        (0, blue, green, 0, 0, gold)
        for blue, green, gold in product(range(3), range(2), range(3))
        if blue <= held[1] and green <= held[2] and gold <= held[GOLD] and blue + green + gold == 3
    }
    options = payment_options(state, EXAMPLE)
    assert set(options) == exact
    assert len(options) == len(exact)
    assert options[0] == tokens(blue=2, green=1)
    for payment in options:
        assert apply_action(state, BuyCard(EXAMPLE, payment)).players[0].cards == (EXAMPLE,)


def test_paid_tokens_return_to_the_supply() -> None:
    state = example_on_board({"blue": 1, "green": 1, "gold": 1})
    after = apply_action(state, BuyCard(EXAMPLE, tokens(blue=1, green=1, gold=1)))
    assert after.supply == tuple(
        left + paid
        for left, paid in zip(state.supply, tokens(blue=1, green=1, gold=1), strict=True)
    )
    assert sum(after.supply) + sum(sum(p.tokens) for p in after.players) == 4 * 5 + 5


def test_a_purchased_card_adds_its_bonus_and_its_points() -> None:
    card = card_where(level=2, colour="blue", cost={"blue": 5})
    state = position(board={2: [card, 40, 41, 42]}, hands=[hand({"blue": 4, "gold": 1})])
    after = apply_action(state, BuyCard(card))
    player = after.players[0]
    assert player.cards == (card,)
    assert player.bonuses == (0, 1, 0, 0, 0)
    assert player.points == points_of(card) == 2


def test_a_bought_face_up_card_is_replaced_in_the_same_slot_from_its_levels_deck() -> None:
    state = example_on_board({"blue": 2, "green": 1})
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.board[0] == (0, 30, 1, 2)
    assert after.decks[0] == state.decks[0][1:]
    assert after.board[1:] == state.board[1:]
    assert after.decks[1:] == state.decks[1:]


def test_a_bought_face_up_card_leaves_an_empty_slot_when_its_deck_is_empty() -> None:
    row = [0, EXAMPLE, 1, 2]
    rest = [card for card in cards_where(level=1) if card not in row]
    state = position(board={1: row}, hands=[hand({"blue": 2, "green": 1}), hand(cards=rest)])
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.board[0] == (0, None, 1, 2)


def test_a_player_may_buy_a_card_they_reserved() -> None:
    state = position(
        deck_tops={1: [30]},
        hands=[hand({"blue": 2, "green": 1}, reserved=[EXAMPLE, 50])],
    )
    assert BuyCard(EXAMPLE) in buys(state)
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].reserved == (50,)
    assert after.players[0].cards == (EXAMPLE,)
    assert after.board == state.board
    assert after.decks == state.decks


def test_a_player_may_buy_a_card_they_reserved_unseen() -> None:
    state = position(hands=[hand({"blue": 2, "green": 1}, reserved=[EXAMPLE], blind=[EXAMPLE])])
    after = apply_action(state, BuyCard(EXAMPLE))
    assert after.players[0].reserved == ()
    assert after.players[0].blind == ()
    assert after.players[0].cards == (EXAMPLE,)


def test_a_player_may_not_buy_another_players_reserved_card() -> None:
    state = position(hands=[hand({"blue": 2, "green": 1}), hand(reserved=[EXAMPLE])])
    assert BuyCard(EXAMPLE) not in buys(state)
    with pytest.raises(IllegalAction, match="reserved"):
        apply_action(state, BuyCard(EXAMPLE))


def test_a_card_in_a_deck_cannot_be_bought() -> None:
    state = position(deck_tops={1: [EXAMPLE]}, hands=[hand({"blue": 2, "green": 1})])
    assert BuyCard(EXAMPLE) not in buys(state)
    with pytest.raises(IllegalAction, match="neither face up"):
        apply_action(state, BuyCard(EXAMPLE))


def test_a_refused_purchase_does_not_tell_a_deck_card_from_another_players_blind_reserve() -> None:
    """Cards reserved unseen are private (design.md, "Hidden information"): probing them with
    purchases must not reveal which card another player holds."""
    in_deck, in_reserve = 60, 61
    state = position(
        deck_tops={2: [in_deck]},
        hands=[hand({"blue": 4}), hand(reserved=[in_reserve], blind=[in_reserve])],
    )
    messages = []
    for card in (in_deck, in_reserve):
        with pytest.raises(IllegalAction) as raised:
            apply_action(state, BuyCard(card))
        messages.append(re.sub(rf"\b{card}\b", "#", str(raised.value)))
    assert messages[0] == messages[1]


def test_the_state_is_unchanged_after_an_illegal_purchase() -> None:
    state = example_on_board({"blue": 3, "green": 1})
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        apply_action(state, BuyCard(EXAMPLE, tokens(blue=3, green=1)))
    assert state == before
