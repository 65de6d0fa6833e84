"""Buying a card from the pyramid or from one's reserve.

Rulebook, "Purchase 1 Jewel card": pay the cost in tokens, less your bonuses; gold is wild for
any gem or pearl; spent tokens go into the bag; a cost is never reduced below 0, so a purchase
never gains tokens; there are no pearl bonuses; a card with 2 bonuses reduces costs by 2. The
"5-Gem" (joker) card joins the colour of a card with a bonus and cannot be bought without one.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, payment_options, state_to_json
from games.engine.duel.actions import BuyCard, ChooseJokerColour
from games.engine.duel.state import CHOOSE_JOKER_COLOUR, MAIN, DuelState
from tests.engine.duel.positions import hand, position, tokens

WHITE_CROWN = 3  # level 1 white, 1 crown: blue 3
WHITE_EXTRA_TURN = 2  # level 1 white: blue 2, green 2, pearl 1
BLACK_POINT = 24  # level 1 black, 1 point: blue 2, green 3
PLAIN_WHITE = 1  # level 1 white: blue, green, red, black 1 each
JOKER_CROWN = 25  # level 1 joker, 1 crown: white 4, pearl 1
JOKER_POINT = 26  # level 1 joker, 1 point: black 4, pearl 1
NO_BONUS = 29  # level 1, 3 points, no bonus: red 4, pearl 1
DOUBLE_WHITE = 31  # level 2, two white bonuses, 1 point: blue 5, green 2
BLUE_CARD = 5  # level 1 blue: white, green, red, black 1 each
GREEN_CARD = 10  # level 1 green: white, blue, red, black 1 each


def refused(state: DuelState, action: BuyCard, reason: str) -> None:
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match=reason):
        apply_action(state, action)
    assert state_to_json(state) == before


def test_buying_from_the_pyramid_pays_into_the_bag_and_takes_the_card() -> None:
    state = position(
        pyramid={1: [WHITE_CROWN]}, hands=[hand({"blue": 3, "red": 1})], deck_tops={1: [7]}
    )
    after = apply_action(state, BuyCard(WHITE_CROWN))
    assert after.players[0].cards == (WHITE_CROWN,)
    assert after.players[0].tokens == tokens(red=1)
    assert after.bag[1] == state.bag[1] + 3
    assert after.players[0].bonuses == (1, 0, 0, 0, 0)
    assert after.players[0].crowns == 1
    assert after.pyramid[0][0] == 7  # refilled from the deck at the end of the turn
    assert after.current == 1


def test_buying_a_reserved_card_takes_it_from_the_reserve() -> None:
    state = position(hands=[hand({"blue": 3}, reserved=[WHITE_CROWN])])
    after = apply_action(state, BuyCard(WHITE_CROWN))
    assert after.players[0].reserved == ()
    assert after.players[0].cards == (WHITE_CROWN,)


def test_gold_stands_in_for_a_missing_gem_or_pearl() -> None:
    state = position(hands=[hand({"blue": 2, "green": 2, "gold": 1}, reserved=[WHITE_EXTRA_TURN])])
    after = apply_action(state, BuyCard(WHITE_EXTRA_TURN))
    assert after.players[0].tokens == tokens()
    assert after.bag[6] == state.bag[6] + 1


def test_gold_may_be_paid_while_holding_the_colour() -> None:
    state = position(hands=[hand({"blue": 3, "gold": 1}, reserved=[WHITE_CROWN])])
    after = apply_action(state, BuyCard(WHITE_CROWN, tokens(blue=2, gold=1)))
    assert after.players[0].tokens == tokens(blue=1)
    assert tokens(blue=2, gold=1) in payment_options(state, WHITE_CROWN)


def test_a_payment_that_does_not_match_the_cost_is_refused() -> None:
    state = position(hands=[hand({"white": 1, "blue": 3, "gold": 1}, reserved=[WHITE_CROWN])])
    refused(state, BuyCard(WHITE_CROWN, tokens(blue=3, gold=1)), "does not match")
    refused(state, BuyCard(WHITE_CROWN, tokens(blue=1, gold=1)), "does not match")
    refused(state, BuyCard(WHITE_CROWN, tokens(white=1, blue=2)), "pays too much white")


def test_bonuses_reduce_the_cost() -> None:
    held = {"blue": 1, "green": 2, "pearl": 1}
    state = position(hands=[hand(held, cards=[BLUE_CARD], reserved=[WHITE_EXTRA_TURN])])
    after = apply_action(state, BuyCard(WHITE_EXTRA_TURN))
    assert after.players[0].tokens == tokens()


def test_a_double_bonus_card_reduces_costs_by_two() -> None:
    state = position(hands=[hand({"white": 2}, cards=[DOUBLE_WHITE], reserved=[JOKER_CROWN])])
    assert state.players[0].bonuses == (2, 0, 0, 0, 0)
    assert BuyCard(JOKER_CROWN) not in legal_actions(state)  # still a pearl short
    richer = position(
        hands=[hand({"white": 2, "pearl": 1}, cards=[DOUBLE_WHITE], reserved=[JOKER_CROWN])]
    )
    after = apply_action(richer, BuyCard(JOKER_CROWN))
    assert after.players[0].tokens == tokens()


def test_pearls_get_no_bonus() -> None:
    bonuses = [BLUE_CARD, GREEN_CARD, 6, 11]  # blue and green cards: 2 blue, 2 green bonuses
    state = position(hands=[hand({}, cards=bonuses, reserved=[WHITE_EXTRA_TURN])])
    assert BuyCard(WHITE_EXTRA_TURN) not in legal_actions(state)
    refused(state, BuyCard(WHITE_EXTRA_TURN), "cannot afford")


def test_a_cost_is_never_below_zero_so_a_purchase_gains_no_tokens() -> None:
    blues = [BLUE_CARD, 6, 7, 8]  # four blue bonuses against a cost of blue 3
    state = position(hands=[hand({"red": 1}, cards=blues, reserved=[WHITE_CROWN])])
    after = apply_action(state, BuyCard(WHITE_CROWN))
    assert after.players[0].tokens == tokens(red=1)
    assert after.bag == state.bag
    assert payment_options(state, WHITE_CROWN) == [tokens()]


def test_an_unaffordable_card_is_refused_and_not_offered() -> None:
    state = position(hands=[hand({"blue": 2}, reserved=[WHITE_CROWN])])
    refused(state, BuyCard(WHITE_CROWN), "cannot afford")
    assert BuyCard(WHITE_CROWN) not in legal_actions(state)


def test_only_the_player_who_reserved_a_card_may_buy_it() -> None:
    state = position(hands=[hand({"blue": 3}), hand(reserved=[WHITE_CROWN])])
    refused(state, BuyCard(WHITE_CROWN), "Only the player who reserved")


def test_buying_a_card_reserved_blind_by_the_opponent_reads_like_any_unseen_card() -> None:
    state = position(hands=[hand({"blue": 3}), hand(reserved=[WHITE_CROWN], blind=[WHITE_CROWN])])
    refused(state, BuyCard(WHITE_CROWN), "neither in the pyramid nor in your reserve")


def test_a_card_in_a_deck_cannot_be_bought() -> None:
    state = position(hands=[hand({"blue": 3})], deck_tops={1: [WHITE_CROWN]})
    refused(state, BuyCard(WHITE_CROWN), "neither in the pyramid nor in your reserve")
    refused(state, BuyCard(67), "no card 67")


def test_a_card_without_a_bonus_gives_points_but_no_bonus_or_colour() -> None:
    state = position(hands=[hand({"red": 4, "pearl": 1}, reserved=[NO_BONUS])])
    after = apply_action(state, BuyCard(NO_BONUS))
    player = after.players[0]
    assert player.points == 3
    assert player.bonuses == (0, 0, 0, 0, 0)
    assert player.colour_points == (0, 0, 0, 0, 0)


def test_a_joker_cannot_be_bought_without_a_card_with_a_bonus() -> None:
    state = position(
        hands=[hand({"white": 4, "pearl": 1}, cards=[NO_BONUS], reserved=[JOKER_CROWN])]
    )
    refused(state, BuyCard(JOKER_CROWN), "(?i)joker.*none yet")
    assert BuyCard(JOKER_CROWN) not in legal_actions(state)


def test_a_joker_joins_the_only_bonus_colour_by_itself() -> None:
    state = position(
        hands=[hand({"black": 4, "pearl": 1}, cards=[BLUE_CARD], reserved=[JOKER_POINT])]
    )
    after = apply_action(state, BuyCard(JOKER_POINT))
    player = after.players[0]
    assert player.card_colours == (1, 1)
    assert player.bonuses == (0, 2, 0, 0, 0)
    assert player.colour_points == (0, 1, 0, 0, 0)
    assert after.phase == MAIN


def test_with_several_bonus_colours_the_player_chooses_the_jokers_colour() -> None:
    state = position(
        hands=[
            hand({"black": 4, "pearl": 1}, cards=[BLUE_CARD, GREEN_CARD], reserved=[JOKER_POINT])
        ]
    )
    choosing = apply_action(state, BuyCard(JOKER_POINT))
    assert choosing.phase == CHOOSE_JOKER_COLOUR
    assert choosing.current == 0
    assert set(legal_actions(choosing)) == {ChooseJokerColour(1), ChooseJokerColour(2)}
    after = apply_action(choosing, ChooseJokerColour(2))
    assert after.players[0].bonuses == (0, 1, 2, 0, 0)
    assert after.players[0].colour_points == (0, 0, 1, 0, 0)
    assert after.current == 1


def test_a_joker_cannot_join_a_colour_without_a_bonus_card() -> None:
    state = position(
        hands=[
            hand({"black": 4, "pearl": 1}, cards=[BLUE_CARD, GREEN_CARD], reserved=[JOKER_POINT])
        ]
    )
    choosing = apply_action(state, BuyCard(JOKER_POINT))
    with pytest.raises(IllegalAction, match="no red"):
        apply_action(choosing, ChooseJokerColour(3))
    with pytest.raises(IllegalAction, match="joker"):
        apply_action(choosing, ChooseJokerColour(5))
