"""Properties of whole Duel games: seeded random playouts, checked at every step.

A playout starts from ``new_game("duel", ...)`` and picks among ``legal_actions`` with a seeded
``random.Random``: uniformly, or as a "reluctant buyer" that mostly takes tokens and reserves,
which makes long games with many discards, replenishments and privileges.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from itertools import combinations
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine.duel import actions as duel
from games.engine.duel.catalogue import CARDS
from games.engine.duel.players import derive
from games.engine.duel.state import DuelState, Setup
from tests.leaks import card_ids_shown

TOKENS_IN_GAME = (4, 4, 4, 4, 4, 2, 3)
TOKEN_LIMIT = 10
PRIVILEGES = 3
ALL_CARDS = list(range(67))
ACTION_BOUND = 5000
EXAMPLES = 20
HEAVY_EXAMPLES = 5


class Game(NamedTuple):
    seed: int
    chooser_seed: int
    reluctant_buyer: bool


class Playout(NamedTuple):
    setup: Setup
    states: list[DuelState]
    actions: list[duel.Action]


games = st.builds(
    Game,
    seed=st.integers(min_value=2**32, max_value=2**52),
    chooser_seed=st.integers(min_value=0, max_value=2**32),
    reluctant_buyer=st.booleans(),
)
property_settings = settings(max_examples=EXAMPLES, deadline=None)
heavy_settings = settings(max_examples=HEAVY_EXAMPLES, deadline=None)


def play(game: Game) -> Playout:
    setup = engine.new_game("duel", 2, game.seed)
    assert isinstance(setup, Setup)
    state = engine.initial_state(setup)
    assert isinstance(state, DuelState)
    rng = random.Random(game.chooser_seed)
    states = [state]
    actions: list[duel.Action] = []
    while engine.outcome(state) is None:
        assert len(actions) < ACTION_BOUND, f"no end after {ACTION_BOUND} actions: {game}"
        legal = engine.legal_actions(state)
        action = rng.choice(legal)
        if game.reluctant_buyer and rng.random() > 0.1:
            others = [option for option in legal if not isinstance(option, duel.BuyCard)]
            action = rng.choice(others or legal)
        state = engine.apply_action(state, action)
        assert isinstance(state, DuelState)
        assert isinstance(action, duel.ACTION_TYPES)
        actions.append(action)
        states.append(state)
    return Playout(setup, states, actions)


def dump(state: DuelState) -> str:
    return json.dumps(engine.state_to_json(state), sort_keys=True)


def assert_tokens_conserved(state: DuelState) -> None:
    totals = [
        state.board.count(colour)
        + state.bag[colour]
        + sum(player.tokens[colour] for player in state.players)
        for colour in range(7)
    ]
    assert totals == list(TOKENS_IN_GAME), f"token totals {totals}"
    counts = [*state.bag, *(count for player in state.players for count in player.tokens)]
    assert min(counts) >= 0, f"a negative token count: {counts}"
    assert sum(player.privileges for player in state.players) <= PRIVILEGES
    assert min(player.privileges for player in state.players) >= 0


def assert_every_card_in_one_place(state: DuelState) -> None:
    places = [card for deck in state.decks for card in deck]
    places += [card for row in state.pyramid for card in row if card is not None]
    for player in state.players:
        places += [*player.cards, *player.reserved]
    assert sorted(places) == ALL_CARDS, "a card is missing or in two places"
    royals = [*state.royals, *(royal for player in state.players for royal in player.royals)]
    assert sorted(royals) == [0, 1, 2, 3]


def assert_derived_fields_agree(state: DuelState) -> None:
    for player in state.players:
        assert derive(
            player.tokens, player.privileges, player.cards, player.card_colours,
            player.reserved, player.blind, player.royals,
        ) == player  # fmt: skip


def assert_token_limit_between_turns(state: DuelState) -> None:
    opponent = state.players[1 - state.current]
    assert sum(opponent.tokens) <= TOKEN_LIMIT
    if state.phase == "game_over":
        assert all(sum(player.tokens) <= TOKEN_LIMIT for player in state.players)


@property_settings
@given(game=games)
def test_tokens_and_privileges_are_conserved_across_board_bag_and_players(game: Game) -> None:
    for state in play(game).states:
        assert_tokens_conserved(state)


@property_settings
@given(game=games)
def test_every_card_and_royal_is_in_exactly_one_place(game: Game) -> None:
    for state in play(game).states:
        assert_every_card_in_one_place(state)
        assert_derived_fields_agree(state)
        assert_token_limit_between_turns(state)


@property_settings
@given(game=games)
def test_replaying_the_actions_from_the_recorded_setup_gives_the_same_states(game: Game) -> None:
    playout = play(game)
    setup = engine.setup_from_json(json.loads(json.dumps(engine.setup_to_json(playout.setup))))
    state = engine.initial_state(setup)
    replayed = [state]
    for action in playout.actions:
        action = engine.action_from_json(
            json.loads(json.dumps(engine.action_to_json(action))), "duel"
        )
        state = engine.apply_action(state, action)
        replayed.append(state)
    assert replayed == playout.states


@property_settings
@given(game=games)
def test_every_state_round_trips_through_json(game: Game) -> None:
    for state in play(game).states:
        assert engine.state_from_json(json.loads(dump(state))) == state


@property_settings
@given(game=games)
def test_every_game_ends_with_a_winner_or_two_passes(game: Game) -> None:
    final = play(game).states[-1]
    result = engine.outcome(final)
    assert result is not None
    assert engine.legal_actions(final) == []
    assert engine.acting_seat(final) is None
    assert result.winners in ((0,), (1,), (0, 1))


@heavy_settings
@given(game=games)
def test_every_legal_action_applies_and_never_changes_its_input(game: Game) -> None:
    for state in play(game).states[::3]:
        before = dump(state)
        for action in engine.legal_actions(state):
            assert isinstance(engine.apply_action(state, action), DuelState)
            data = json.loads(json.dumps(engine.action_to_json(action)))
            assert engine.action_from_json(data, "duel") == action
        assert dump(state) == before


def crafted_actions(rng: random.Random) -> list[duel.Action]:
    """Actions of every kind, well formed, most of them illegal in any given state."""
    spaces = range(25)
    picks: list[duel.Action] = [duel.Replenish(), duel.Pass()]
    picks += [duel.TakeTokens(combo) for combo in rng.sample(list(combinations(spaces, 2)), 8)]
    picks += [duel.TakeTokens(combo) for combo in rng.sample(list(combinations(spaces, 3)), 8)]
    picks += [duel.TakeTokens((rng.randrange(25),)), duel.TakeTokens((0, 1, 2, 3))]
    picks += [duel.UsePrivilege(rng.randrange(25)), duel.TakeGold(rng.randrange(25))]
    picks += [duel.ReserveCard(rng.randrange(67)), duel.ReserveFromDeck(rng.randrange(5))]
    picks += [duel.BuyCard(rng.randrange(67)) for _ in range(4)]
    picks += [duel.ChooseJokerColour(rng.randrange(7)), duel.TakeMatchingToken(rng.randrange(25))]
    picks += [duel.StealToken(rng.randrange(7)), duel.ChooseRoyal(rng.randrange(4))]
    picks += [duel.DiscardTokens(tuple(rng.randrange(3) for _ in range(7)))]
    return picks


CLASS_NAME = re.compile(r"\b[A-Z][a-z]+[A-Z]\w*\(")


@heavy_settings
@given(game=games)
def test_crafted_actions_apply_exactly_when_legal_and_are_refused_in_a_players_words(
    game: Game,
) -> None:
    rng = random.Random(game.chooser_seed)
    for state in play(game).states[::2]:
        legal = set(engine.legal_actions(state))
        before = dump(state)
        for action in crafted_actions(rng):
            if action in legal:
                engine.apply_action(state, action)
                continue
            with pytest.raises(engine.IllegalAction) as refusal:
                engine.apply_action(state, action)
            message = str(refusal.value)
            assert message.endswith("."), message
            assert not CLASS_NAME.search(message), message
        assert dump(state) == before


def hidden_cards(state: DuelState, viewer: int | None) -> set[int]:
    hidden = {card for deck in state.decks for card in deck}
    for seat, player in enumerate(state.players):
        if seat != viewer:
            hidden |= set(player.blind)
    return hidden


def views(state: DuelState) -> Iterator[tuple[int | None, dict[str, Any]]]:
    for viewer in (0, 1, None):
        yield viewer, json.loads(json.dumps(engine.view(state, viewer)))


def reshuffled(state: DuelState, rng: random.Random) -> DuelState:
    """The same position with every hidden thing changed: deck orders and the bag's draws."""
    decks = tuple(tuple(rng.sample(deck, len(deck))) for deck in state.decks)
    draws = tuple(tuple(rng.sample(range(25), 25)) for _ in state.bag_draws)
    return state._replace(decks=decks, bag_draws=draws)


@heavy_settings
@given(game=games)
def test_a_view_never_shows_a_deck_the_bag_order_a_hidden_reserve_or_the_seed(game: Game) -> None:
    playout = play(game)
    rng = random.Random(game.chooser_seed)
    for state in playout.states:
        other = reshuffled(state, rng)
        for viewer, seen in views(state):
            assert not card_ids_shown(seen) & hidden_cards(state, viewer)
            text = json.dumps(seen)
            assert "bag_draws" not in text
            assert '"seed"' not in text
            assert str(playout.setup.seed) not in text
            assert seen["decks"] == [len(deck) for deck in state.decks]
            if state.phase != "game_over" or viewer is not None:
                assert engine.view(other, viewer) == engine.view(state, viewer)


def test_a_hidden_reserve_is_shown_to_its_owner_only_and_to_all_once_revealed() -> None:
    setup = engine.new_game("duel", 2, 2**40)
    state = engine.initial_state(setup)
    assert isinstance(state, DuelState)
    gold = next(
        action for action in engine.legal_actions(state) if isinstance(action, duel.TakeGold)
    )
    state = engine.apply_action(engine.apply_action(state, gold), duel.ReserveFromDeck(3))
    owner = 1 - state.current
    card = state.players[owner].reserved[0]
    assert card in card_ids_shown(engine.view(state, owner))
    assert card not in card_ids_shown(engine.view(state, 1 - owner))
    assert card not in card_ids_shown(engine.view(state, None))
    assert card in card_ids_shown(engine.view(state, None, reveal=True))
    assert CARDS[card].level == 3


def test_a_seeded_playout_is_reproducible() -> None:
    game = Game(seed=2**40, chooser_seed=7, reluctant_buyer=False)
    first, second = play(game), play(game)
    assert first.actions == second.actions
    assert [dump(state) for state in first.states] == [dump(state) for state in second.states]
