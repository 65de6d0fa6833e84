"""Setup rules: the supply, the display and the nobles for 2, 3 and 4 players, and the seed.

Rulebook: "With 2 players remove 3 tokens of each gem color (only 4 of each remaining). Don't
touch the gold. Reveal 3 noble tiles. With 3 players remove 2 tokens of each gem color ...
Reveal 4 noble tiles"; "reveal 4 cards from each level"; "as many [nobles] as there are players
plus one"; "The youngest player begins" (here: seat 0).
"""

from __future__ import annotations

import random

import pytest

import games.engine as engine
from games.engine import IllegalAction, UnknownVariant
from games.engine.splendor.catalogue import CARD_IDS_BY_LEVEL, CARDS, LEVELS, NOBLES
from games.engine.splendor.state import MAIN
from tests.engine.positions import GEM_NAMES, take

CARDS_PER_LEVEL = {1: 40, 2: 30, 3: 20}


def start(players: int, seed: int = 1) -> engine.State:
    return engine.initial_state(engine.new_game("splendor", players, seed))


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_gem_tokens_per_colour_depend_on_the_player_count(players: int, gems: int) -> None:
    state = start(players)
    assert state.supply[:5] == (gems,) * 5
    assert engine.view(state, None)["supply"] == {**dict.fromkeys(GEM_NAMES, gems), "gold": 5}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gold_is_always_five_tokens(players: int) -> None:
    assert start(players).supply[5] == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nobles_revealed_are_one_more_than_the_players(players: int) -> None:
    state = start(players)
    assert len(state.nobles) == players + 1
    assert len(set(state.nobles)) == players + 1
    assert set(state.nobles) <= {noble.id for noble in NOBLES}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_cards_are_face_up_for_each_level(players: int) -> None:
    state = start(players)
    for level, row in enumerate(state.board, start=1):
        assert len(row) == 4
        assert all(card is not None and CARDS[card].level == level for card in row)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_deck_holds_the_rest_of_its_level(players: int) -> None:
    state = start(players)
    for level, (deck, row) in enumerate(zip(state.decks, state.board, strict=True), start=1):
        assert len(deck) == CARDS_PER_LEVEL[level] - 4
        face_up = [card for card in row if card is not None]
        assert sorted((*deck, *face_up)) == [card.id for card in CARDS if card.level == level]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_start_with_no_tokens_cards_reserves_or_nobles(players: int) -> None:
    state = start(players)
    assert len(state.players) == players
    for player in state.players:
        assert sum(player.tokens) == 0
        assert player.cards == player.reserved == player.nobles == ()
        assert player.points == 0


def test_seat_zero_plays_first() -> None:
    state = start(3)
    assert state.phase == MAIN
    assert state.current == 0
    assert engine.acting_seat(state) == 0


def test_the_same_seed_gives_the_same_setup() -> None:
    assert engine.new_game("splendor", 3, 1234) == engine.new_game("splendor", 3, 1234)
    assert start(3, 1234) == start(3, 1234)


def test_different_seeds_give_different_setups() -> None:
    setups = [engine.new_game("splendor", 4, seed) for seed in range(20)]
    assert len({setup.decks for setup in setups}) == 20
    assert len({setup.nobles for setup in setups}) > 1


def test_each_level_is_shuffled() -> None:
    setup = engine.new_game("splendor", 2, 99)
    for level, deck in enumerate(setup.decks, start=1):
        in_id_order = [card.id for card in CARDS if card.level == level]
        assert sorted(deck) == in_id_order
        assert list(deck) != in_id_order


def test_the_same_setup_and_actions_give_the_same_states() -> None:
    def replay() -> list[engine.State]:
        state = start(2, 7)
        states = [state]
        for action in (take("white", "blue", "green"), take("red", "red")):
            state = engine.apply_action(state, action)
            states.append(state)
        for _ in range(6):
            state = engine.apply_action(state, engine.legal_actions(state)[-1])
            states.append(state)
        return states

    assert replay() == replay()


@pytest.mark.parametrize("players", [1, 5])
def test_splendor_is_refused_for_fewer_than_two_or_more_than_four_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="2 to 4 players"):
        engine.new_game("splendor", players, 1)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(IllegalAction, match="cities"):
        engine.new_game("splendor", 2, 1, {"cities": True})


def test_no_options_are_accepted() -> None:
    assert engine.new_game("splendor", 2, 1, {}) == engine.new_game("splendor", 2, 1)


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(UnknownVariant, match="chess"):
        engine.new_game("chess", 2, 1)


def test_a_recorded_setup_that_is_not_a_shuffle_of_the_cards_is_refused() -> None:
    setup = engine.new_game("splendor", 2, 1)
    level_one = setup.decks[0]
    tampered = setup._replace(decks=((level_one[0], *level_one), *setup.decks[1:]))
    with pytest.raises(IllegalAction):
        engine.initial_state(tampered)


def test_the_setup_round_trips_through_json() -> None:
    setup = engine.new_game("splendor", 4, 5)
    assert engine.setup_from_json(engine.setup_to_json(setup)) == setup


def test_nobles_not_drawn_stay_out_of_the_game() -> None:
    setup = engine.new_game("splendor", 2, 11)
    state = engine.initial_state(setup)
    assert state.nobles == setup.nobles
    for _ in range(200):
        if engine.outcome(state) is not None:
            break
        state = engine.apply_action(state, engine.legal_actions(state)[-1])
        in_play = {*state.nobles, *(noble for player in state.players for noble in player.nobles)}
        assert in_play == set(setup.nobles)


def test_the_first_player_may_take_or_reserve_but_has_nothing_to_buy_or_pass() -> None:
    actions = engine.legal_actions(start(2))
    kinds = {type(action).__name__ for action in actions}
    assert kinds == {"TakeGems", "ReserveCard", "ReserveFromDeck"}
    assert len(actions) == 10 + 5 + 12 + 3
    assert len(set(actions)) == len(actions)


def test_a_setup_deals_the_decks_random_shuffle_deals_from_the_seed() -> None:
    # Seeds recorded before the engine shuffled in a loop of its own must still give their
    # games: the same draws from the same generator, so the same decks and nobles.
    for seed in range(2000):
        rng = random.Random(seed)
        decks = []
        for level in LEVELS:
            deck = list(CARD_IDS_BY_LEVEL[level])
            rng.shuffle(deck)
            decks.append(tuple(deck))
        nobles = tuple(sorted(rng.sample(range(len(NOBLES)), 3)))
        setup = engine.new_game("splendor", 2, seed)
        assert (setup.decks, setup.nobles) == (tuple(decks), nobles), f"seed {seed}"
