"""Setting up a game of Splendor Duel.

Rulebook, "Setup": shuffle the 3 decks separately; reveal 3 level-3, 4 level-2 and 5 level-1
cards as a pyramid; place the 25 tokens on the board at random, starting with the central space
and following the printed spiral; the 3 privileges above the board and the 4 royal cards below
it; choose the first player at random: their opponent takes 1 privilege.
"""

from __future__ import annotations

from collections import Counter

import pytest

import games.engine as engine
from games.engine import IllegalAction
from games.engine.duel.catalogue import SPIRAL
from games.engine.duel.state import MAIN, DuelState, Setup
from games.engine.duel.tokens import COLOUR_NAMES
from tests.engine.duel.test_bag_draws import drawn_at_once

TOKENS_IN_GAME = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}


def new_state(seed: int = 1) -> DuelState:
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    assert isinstance(state, DuelState)
    return state


def new_setup(seed: int = 1) -> Setup:
    setup = engine.new_game("duel", 2, seed)
    assert isinstance(setup, Setup)
    return setup


def test_duel_is_a_known_variant() -> None:
    assert "duel" in engine.VARIANTS
    assert engine.seat_counts("duel") == (2,)


@pytest.mark.parametrize("players", [1, 3, 4])
def test_duel_is_played_by_two_players_only(players: int) -> None:
    with pytest.raises(IllegalAction, match="2 players"):
        engine.new_game("duel", players, 1)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(IllegalAction, match="unknown option"):
        engine.new_game("duel", 2, 1, {"fast": True})


def test_each_deck_is_shuffled_separately_and_holds_its_whole_level() -> None:
    setup = new_setup()
    assert [sorted(deck) for deck in setup.decks] == [
        list(range(30)),
        list(range(30, 54)),
        list(range(54, 67)),
    ]
    assert any(list(deck) != sorted(deck) for deck in setup.decks)


def test_the_pyramid_shows_5_level_1_4_level_2_and_3_level_3_cards_from_the_deck_tops() -> None:
    setup = new_setup()
    state = engine.initial_state(setup)
    assert state.pyramid == (setup.decks[0][:5], setup.decks[1][:4], setup.decks[2][:3])
    assert state.decks == (setup.decks[0][5:], setup.decks[1][4:], setup.decks[2][3:])


def test_all_25_tokens_start_on_the_board_and_the_bag_is_empty() -> None:
    state = new_state()
    counts = Counter(COLOUR_NAMES[token] for token in state.board)
    assert counts == TOKENS_IN_GAME
    assert sum(state.bag) == 0


def test_tokens_are_laid_along_the_spiral_from_the_centre_in_the_recorded_order() -> None:
    setup = new_setup()
    state = engine.initial_state(setup)
    for order, (row, column) in enumerate(SPIRAL):
        assert state.board[row * 5 + column] == setup.tokens[order]


def test_the_token_order_is_random() -> None:
    orders = {new_setup(seed).tokens for seed in range(10)}
    assert len(orders) == 10


def test_the_first_player_is_chosen_at_random() -> None:
    firsts = {new_setup(seed).first_player for seed in range(40)}
    assert firsts == {0, 1}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_first_players_opponent_takes_one_privilege(seed: int) -> None:
    state = new_state(seed)
    first = state.current
    assert state.players[first].privileges == 0
    assert state.players[1 - first].privileges == 1


def test_all_four_royals_wait_below_the_board() -> None:
    assert new_state().royals == (0, 1, 2, 3)


def test_players_start_with_no_tokens_cards_reserves_or_royals() -> None:
    for player in new_state().players:
        assert sum(player.tokens) == 0
        assert player.cards == player.reserved == player.royals == ()
        assert player.points == player.crowns == 0


def test_the_game_starts_in_the_main_phase_at_turn_zero() -> None:
    state = new_state()
    assert state.phase == MAIN
    assert state.turn == 0
    assert engine.acting_seat(state) == state.current


def test_the_same_seed_gives_the_same_setup_and_another_seed_another() -> None:
    assert new_setup(7) == new_setup(7)
    assert new_setup(7) != new_setup(8)


def test_a_seed_deals_what_random_shuffle_deals_from_it() -> None:
    """``new_game`` shuffles without ``Random.shuffle``'s call per item; the same seed must still
    give the game ``Random.shuffle`` gives (``drawn_at_once``: every draw in one go)."""
    for seed in [*range(300), 2**32 - 1, 10**12 + 7]:
        expected_setup, expected_orders = drawn_at_once(seed)
        setup = new_setup(seed)
        assert setup._replace(bag_draws=expected_orders) == expected_setup, seed
        assert setup.bag_draws[0] == expected_orders[0], seed


def test_the_bag_draw_orders_are_recorded_shuffles_of_the_25_positions() -> None:
    setup = new_setup()
    assert len(setup.bag_draws) >= 32
    assert all(sorted(order) == list(range(25)) for order in setup.bag_draws)
    assert len(set(setup.bag_draws)) == len(setup.bag_draws)


def test_a_recorded_setup_that_is_not_a_shuffle_of_the_game_is_refused() -> None:
    setup = new_setup()
    bad_decks = setup._replace(decks=(setup.decks[0][1:], *setup.decks[1:]))
    with pytest.raises(IllegalAction, match="decks"):
        engine.initial_state(bad_decks)
    bad_tokens = setup._replace(tokens=(0,) * 25)
    with pytest.raises(IllegalAction, match="tokens"):
        engine.initial_state(bad_tokens)
    bad_draws = setup._replace(bag_draws=((0,) * 25,))
    with pytest.raises(IllegalAction, match="bag draws"):
        engine.initial_state(bad_draws)
    with pytest.raises(IllegalAction, match="first player"):
        engine.initial_state(setup._replace(first_player=2))


def test_the_first_player_can_take_tokens_or_reserve_but_has_nothing_to_buy() -> None:
    state = new_state()
    kinds = {type(action).__name__ for action in engine.legal_actions(state)}
    assert kinds == {"TakeTokens", "TakeGold"}
