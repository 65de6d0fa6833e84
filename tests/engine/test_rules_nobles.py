"""Noble visits: checked at the end of every turn, bonuses only, at most one a turn, 3 points.

Rulebook: "At the end of their turn, a player checks whether they qualify for a noble visit. A
player qualifies if they have at least the quantity and types of bonuses (from purchased
development cards) shown on a noble tile." "A noble visit is automatic – a player cannot refuse
it." "If a player qualifies for multiple nobles on the same turn, they choose one to receive. The
other noble(s) remain available for future turns." "A player can receive at most one noble per
turn." "Each noble tile is worth 3 prestige points." FAQ: "Do bonuses from reserved cards count
for Nobles? No." Design: nobles are checked at the end of every turn (also after taking or
reserving); the choice is its own action.
"""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalAction, State, apply_action, legal_actions, view
from games.engine.splendor.actions import BuyCard, ChooseNoble, Pass, ReserveCard, ReserveFromDeck
from games.engine.splendor.catalogue import NOBLES
from games.engine.splendor.state import CHOOSE_NOBLE, MAIN, RETURN_TOKENS
from tests.engine.positions import (
    cards_where,
    cost_of,
    hand,
    noble_where,
    play,
    position,
    take,
)

WHITE = cards_where(level=1, colour="white", points=0)
BLUE = cards_where(level=1, colour="blue", points=0)
RED = cards_where(level=1, colour="red", points=0)

THREE_WHITE_BLUE_GREEN = noble_where(white=3, blue=3, green=3)
THREE_BLUE_GREEN_RED = noble_where(blue=3, green=3, red=3)
FOUR_WHITE_BLUE = noble_where(white=4, blue=4)
FOUR_GREEN_RED = noble_where(green=4, red=4)
FOUR_RED_BLACK = noble_where(red=4, black=4)

# A green card costing 2 blue and 2 red: free for a player with 3 blue and 3 red bonuses.
GREEN_FOR_BLUE_AND_RED = 19
GREEN = [card for card in cards_where(level=1, colour="green", points=0) if card != 19]


def one_green_short(
    extra: tuple[int, ...] = (), nobles: tuple[int, ...] = (), held: dict[str, int] | None = None
) -> State:
    """Seat 0 has 3 white, 3 blue and 2 green bonuses (plus ``extra`` cards)."""
    return position(
        board={1: [GREEN_FOR_BLUE_AND_RED, 32, 33, 34]},
        hands=[hand(held or {}, cards=[*WHITE[:3], *BLUE[:3], *GREEN[:2], *extra])],
        nobles=nobles or (THREE_WHITE_BLUE_GREEN, FOUR_GREEN_RED, FOUR_RED_BLACK),
    )


def already_qualified(held: int = 7) -> State:
    """Seat 0 qualified for two nobles at once on an earlier turn and chose one: the other is
    still on the table and seat 0 still qualifies for it. Seat 0 holds ``held`` tokens (7 or 9)."""
    extra = held - 7
    return position(
        hands=[
            hand(
                {"white": 2, "blue": 2, "green": 1 + extra // 2, "red": 1, "black": 1 + extra // 2},
                cards=[*WHITE[:3], *BLUE[:3], *GREEN[:3], *RED[:3]],
                nobles=[THREE_BLUE_GREEN_RED],
            )
        ],
        nobles=[THREE_WHITE_BLUE_GREEN, FOUR_RED_BLACK],
    )


def test_the_example_green_card_costs_two_blue_and_two_red() -> None:
    assert cost_of(GREEN_FOR_BLUE_AND_RED) == {"blue": 2, "red": 2}


def test_a_noble_visits_automatically_at_the_end_of_the_turn_its_bonuses_are_met() -> None:
    state = one_green_short(held={"red": 2})
    after = apply_action(state, BuyCard(GREEN_FOR_BLUE_AND_RED))
    player = after.players[0]
    assert player.nobles == (THREE_WHITE_BLUE_GREEN,)
    assert THREE_WHITE_BLUE_GREEN not in after.nobles
    assert after.phase == MAIN
    assert after.current == 1


def test_a_noble_is_worth_three_points() -> None:
    assert all(noble.points == 3 for noble in NOBLES)
    state = one_green_short(held={"red": 2})
    after = apply_action(state, BuyCard(GREEN_FOR_BLUE_AND_RED))
    assert after.players[0].points == state.players[0].points + 3
    assert view(after, None)["players"][0]["points"] == 3


def test_the_card_bought_this_turn_counts_towards_a_noble() -> None:
    state = one_green_short(held={"red": 2})
    assert state.players[0].nobles == ()
    after = apply_action(state, BuyCard(GREEN_FOR_BLUE_AND_RED))
    assert after.players[0].nobles == (THREE_WHITE_BLUE_GREEN,)


def test_tokens_do_not_count_towards_a_noble() -> None:
    state = one_green_short(held={"green": 4})
    after = apply_action(state, take("white", "blue", "red"))
    assert after.players[0].nobles == ()
    assert THREE_WHITE_BLUE_GREEN in after.nobles


def test_reserved_cards_do_not_count_towards_a_noble() -> None:
    state = position(
        board={1: [GREEN[3], 32, 33, 34]},
        hands=[hand(cards=[*WHITE[:3], *BLUE[:3], *GREEN[:2]], reserved=[GREEN[2]])],
        nobles=(THREE_WHITE_BLUE_GREEN, FOUR_GREEN_RED, FOUR_RED_BLACK),
    )
    after = apply_action(state, ReserveCard(GREEN[3]))
    assert after.players[0].reserved == (GREEN[2], GREEN[3])
    assert after.players[0].nobles == ()
    assert THREE_WHITE_BLUE_GREEN in after.nobles


def test_more_bonuses_than_a_noble_needs_still_qualify() -> None:
    state = one_green_short(extra=(WHITE[3], BLUE[3], BLUE[4]), held={"red": 2})
    after = apply_action(state, BuyCard(GREEN_FOR_BLUE_AND_RED))
    assert after.players[0].nobles == (THREE_WHITE_BLUE_GREEN,)


def test_a_noble_visits_at_the_end_of_a_turn_spent_taking_tokens() -> None:
    after = apply_action(already_qualified(), take("white", "blue", "green"))
    assert after.phase == MAIN
    assert after.players[0].nobles == (THREE_BLUE_GREEN_RED, THREE_WHITE_BLUE_GREEN)


def test_a_noble_visits_at_the_end_of_a_turn_spent_reserving() -> None:
    for action in (ReserveCard(40), ReserveFromDeck(3)):
        after = apply_action(already_qualified(), action)
        assert after.players[0].nobles == (THREE_BLUE_GREEN_RED, THREE_WHITE_BLUE_GREEN)
        assert after.current == 1


def test_a_noble_visits_after_the_tokens_above_ten_are_returned() -> None:
    state = apply_action(already_qualified(held=9), take("white", "blue", "black"))
    assert state.phase == RETURN_TOKENS
    assert THREE_WHITE_BLUE_GREEN in state.nobles
    after = apply_action(state, legal_actions(state)[0])
    assert after.players[0].nobles == (THREE_BLUE_GREEN_RED, THREE_WHITE_BLUE_GREEN)
    assert after.phase == MAIN
    assert after.current == 1


def test_a_noble_visits_even_on_a_turn_the_player_can_only_pass() -> None:
    state = position(
        supply={"gold": 5},
        board={1: [15, 23, 30, 33], 2: [42, 60, 63, 69], 3: [71, 87, 89, 85]},
        hands=[
            hand(
                {"white": 4, "blue": 4, "green": 2},
                cards=[*WHITE[:4], *BLUE[:4], *GREEN[:3]],
                reserved=[44, 62, 88],
                nobles=[FOUR_WHITE_BLUE],
            ),
            hand({"green": 2, "red": 4, "black": 4}),
        ],
        nobles=[THREE_WHITE_BLUE_GREEN, FOUR_RED_BLACK],
    )
    assert legal_actions(state) == [Pass()]
    after = apply_action(state, Pass())
    assert after.players[0].nobles == (FOUR_WHITE_BLUE, THREE_WHITE_BLUE_GREEN)


def two_nobles_qualify() -> State:
    """Seat 0 buys the green card that completes both 3-3-3 nobles at once."""
    state = one_green_short(
        extra=tuple(RED[:3]),
        nobles=(THREE_WHITE_BLUE_GREEN, THREE_BLUE_GREEN_RED, FOUR_RED_BLACK),
    )
    return apply_action(state, BuyCard(GREEN_FOR_BLUE_AND_RED))


def test_a_player_qualifying_for_several_nobles_chooses_one() -> None:
    state = two_nobles_qualify()
    assert state.phase == CHOOSE_NOBLE
    assert state.current == 0
    assert set(state.pending_nobles) == {THREE_WHITE_BLUE_GREEN, THREE_BLUE_GREEN_RED}
    assert set(legal_actions(state)) == {
        ChooseNoble(THREE_WHITE_BLUE_GREEN),
        ChooseNoble(THREE_BLUE_GREEN_RED),
    }
    assert state.players[0].nobles == ()


def test_only_one_noble_visits_per_turn_and_the_other_stays_on_the_table() -> None:
    after = apply_action(two_nobles_qualify(), ChooseNoble(THREE_BLUE_GREEN_RED))
    assert after.players[0].nobles == (THREE_BLUE_GREEN_RED,)
    assert after.players[0].points == 3
    assert THREE_WHITE_BLUE_GREEN in after.nobles
    assert THREE_BLUE_GREEN_RED not in after.nobles
    assert after.phase == MAIN
    assert after.current == 1


def test_the_noble_left_behind_visits_on_the_players_next_turn() -> None:
    state = play(
        two_nobles_qualify(), ChooseNoble(THREE_BLUE_GREEN_RED), take("white", "blue", "green")
    )
    assert state.current == 0
    assert state.players[0].nobles == (THREE_BLUE_GREEN_RED,)
    after = apply_action(state, take("white", "red", "black"))
    assert after.players[0].nobles == (THREE_BLUE_GREEN_RED, THREE_WHITE_BLUE_GREEN)


def test_a_noble_that_is_not_among_the_choices_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not one of your choices"):
        apply_action(two_nobles_qualify(), ChooseNoble(FOUR_RED_BLACK))


def test_nothing_but_choosing_a_noble_is_allowed_while_the_choice_is_open() -> None:
    state = two_nobles_qualify()
    for action in (take("white", "red", "black"), ReserveCard(40), Pass()):
        with pytest.raises(IllegalAction, match="noble"):
            apply_action(state, action)


def test_no_noble_can_be_chosen_instead_of_an_action() -> None:
    with pytest.raises(IllegalAction, match="No noble"):
        apply_action(one_green_short(), ChooseNoble(THREE_WHITE_BLUE_GREEN))


def test_a_noble_once_received_cannot_visit_another_player() -> None:
    state = position(
        board={1: [GREEN_FOR_BLUE_AND_RED, 32, 33, 34]},
        hands=[
            hand({"red": 2}, cards=[*WHITE[:3], *BLUE[:3], *GREEN[:2]]),
            hand(cards=[*WHITE[3:6], *BLUE[3:6], *GREEN[2:5]]),
        ],
        nobles=(THREE_WHITE_BLUE_GREEN, FOUR_GREEN_RED, FOUR_RED_BLACK),
    )
    state = apply_action(state, BuyCard(GREEN_FOR_BLUE_AND_RED))
    assert state.players[0].nobles == (THREE_WHITE_BLUE_GREEN,)
    after = apply_action(state, take("white", "blue", "green"))
    assert after.players[1].nobles == ()


def test_the_state_is_unchanged_after_an_illegal_noble_choice() -> None:
    state = two_nobles_qualify()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        apply_action(state, ChooseNoble(FOUR_RED_BLACK))
    assert state == before
