"""Properties of whole games: random playouts for 2, 3 and 4 players, checked at every step.

A playout starts from ``new_game`` and picks among ``legal_actions`` with a seeded
``random.Random``: uniformly, or as a "reluctant buyer" that mostly takes and reserves, which
makes long games with many returns, empty decks and passes. The checkers below raise
``AssertionError``; the last tests make sure each of them can fail.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine.splendor.actions import BuyCard
from games.engine.splendor.catalogue import CARDS

# Facts of the rulebook, written out rather than read from the engine.
GEMS_PER_COLOUR = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS = 5
TOKEN_LIMIT = 10
NOBLE_POINTS = 3
ALL_CARDS = list(range(90))
ACTION_BOUND = 3000
"""Every game must be over within this many actions (random games take a few hundred)."""

EXAMPLES = 50
"""Games per property; a playout costs a few milliseconds."""
HEAVY_EXAMPLES = 20
"""Games per property that does much more work at every step (every action, every view)."""


class Game(NamedTuple):
    """What a playout is drawn from; small, so Hypothesis can print and shrink it."""

    players: int
    seed: int
    chooser_seed: int
    reluctant_buyer: bool


class Playout(NamedTuple):
    setup: engine.Setup
    states: list[engine.State]
    """``states[0]`` is the initial state; ``states[i + 1]`` follows ``actions[i]``."""
    actions: list[engine.Action]


games = st.builds(
    Game,
    players=st.sampled_from([2, 3, 4]),
    # Seeds far from small numbers, so a seed found in a view cannot be a coincidence.
    seed=st.integers(min_value=2**32, max_value=2**62),
    chooser_seed=st.integers(min_value=0, max_value=2**32),
    reluctant_buyer=st.booleans(),
)
property_settings = settings(max_examples=EXAMPLES, deadline=None)
heavy_property_settings = settings(max_examples=HEAVY_EXAMPLES, deadline=None)


def choose(rng: random.Random, legal: list[engine.Action], reluctant_buyer: bool) -> engine.Action:
    if reluctant_buyer and rng.random() > 0.1:
        others = [action for action in legal if not isinstance(action, BuyCard)]
        if others:
            return rng.choice(others)
    return rng.choice(legal)


def play(game: Game) -> Playout:
    setup = engine.new_game("splendor", game.players, game.seed)
    state = engine.initial_state(setup)
    rng = random.Random(game.chooser_seed)
    states = [state]
    actions: list[engine.Action] = []
    while engine.outcome(state) is None:
        assert len(actions) < ACTION_BOUND, f"no end after {ACTION_BOUND} actions: {game}"
        action = choose(rng, engine.legal_actions(state), game.reluctant_buyer)
        state = engine.apply_action(state, action)
        actions.append(action)
        states.append(state)
    return Playout(setup, states, actions)


def dump(state: engine.State) -> str:
    return json.dumps(engine.state_to_json(state), sort_keys=True)


# Checkers -------------------------------------------------------------------------------------


def assert_tokens_conserved(state: engine.State) -> None:
    gems = GEMS_PER_COLOUR[len(state.players)]
    totals = [
        state.supply[colour] + sum(player.tokens[colour] for player in state.players)
        for colour in range(6)
    ]
    assert totals == [gems] * 5 + [GOLD_TOKENS], f"token totals {totals}"
    counts = [*state.supply, *(count for player in state.players for count in player.tokens)]
    assert min(counts) >= 0, f"a negative token count: {counts}"


def card_places(state: engine.State) -> list[int]:
    places = [card for deck in state.decks for card in deck]
    places += [card for row in state.board for card in row if card is not None]
    for player in state.players:
        places += [*player.cards, *player.reserved]
    return places


def assert_every_card_in_one_place(state: engine.State) -> None:
    assert sorted(card_places(state)) == ALL_CARDS, "a card is missing or in two places"
    for level, (deck, row) in enumerate(zip(state.decks, state.board, strict=True), start=1):
        for card in (*deck, *row):
            assert card is None or CARDS[card].level == level, f"card {card} not at level {level}"
    for player in state.players:
        assert set(player.blind) <= set(player.reserved), "a blind card is not reserved"


def assert_token_limit_after_turns(state: engine.State) -> None:
    for seat, player in enumerate(state.players):
        if state.phase == "return_tokens" and seat == state.current:
            assert sum(player.tokens) > TOKEN_LIMIT, "returning tokens without an excess"
            continue
        assert sum(player.tokens) <= TOKEN_LIMIT, f"seat {seat} holds {sum(player.tokens)}"


def assert_points_and_bonuses_derived(state: engine.State) -> None:
    for seat, player in enumerate(state.players):
        points = sum(CARDS[card].points for card in player.cards) + NOBLE_POINTS * len(
            player.nobles
        )
        assert player.points == points, f"seat {seat}: {player.points} points, not {points}"
        bonuses = tuple(
            sum(1 for card in player.cards if CARDS[card].colour == colour) for colour in range(5)
        )
        assert player.bonuses == bonuses, f"seat {seat}: bonuses {player.bonuses}, not {bonuses}"


def card_ids_in(text: str) -> list[int]:
    """The id of every card dict (``{"id", "level", "colour", ...}``) anywhere in a JSON text."""
    ids: list[int] = []

    def collect(obj: dict[str, Any]) -> dict[str, Any]:
        if {"id", "level", "colour"} <= obj.keys():
            ids.append(obj["id"])
        return obj

    json.loads(text, object_hook=collect)
    return ids


def visible_cards(state: engine.State, viewer: int | None) -> list[int]:
    visible = [card for row in state.board for card in row if card is not None]
    for seat, player in enumerate(state.players):
        visible += player.cards
        visible += [card for card in player.reserved if card not in player.blind or seat == viewer]
    return sorted(visible)


def hidden_cards(state: engine.State, viewer: int | None) -> set[int]:
    hidden = {card for deck in state.decks for card in deck}
    for seat, player in enumerate(state.players):
        if seat != viewer:
            hidden |= set(player.blind)
    return hidden


def assert_view_shows_only_visible_cards(
    state: engine.State, viewer: int | None, text: str
) -> None:
    shown = sorted(card_ids_in(text))
    leaked = set(shown) & hidden_cards(state, viewer)
    assert not leaked, f"viewer {viewer} sees hidden card(s) {sorted(leaked)}"
    assert shown == visible_cards(state, viewer), f"viewer {viewer} sees {shown}"
    sizes = [len(deck) for deck in state.decks]
    assert json.loads(text)["decks"] == sizes, "a view shows more of a deck than its size"


def assert_view_has_no_seed(seed: int, text: str) -> None:
    assert '"seed"' not in text, "a view has a seed field"
    assert str(seed) not in text, "a view contains the seed"


def views(state: engine.State) -> Iterator[tuple[int | None, str]]:
    """Each seat's view and a spectator's, as the JSON text they travel as."""
    for viewer in [*range(len(state.players)), None]:
        yield viewer, json.dumps(engine.view(state, viewer))


# Properties -----------------------------------------------------------------------------------


@property_settings
@given(game=games)
def test_tokens_are_conserved_at_every_step(game: Game) -> None:
    for state in play(game).states:
        assert_tokens_conserved(state)


@property_settings
@given(game=games)
def test_every_card_is_in_exactly_one_place_at_every_step(game: Game) -> None:
    for state in play(game).states:
        assert_every_card_in_one_place(state)


@property_settings
@given(game=games)
def test_no_player_holds_more_than_ten_tokens_once_a_turn_completes(game: Game) -> None:
    for state in play(game).states:
        assert_token_limit_after_turns(state)


@property_settings
@given(game=games)
def test_points_are_the_cards_points_plus_three_per_noble(game: Game) -> None:
    for state in play(game).states:
        assert_points_and_bonuses_derived(state)


@heavy_property_settings
@given(game=games)
def test_every_legal_action_applies_without_error(game: Game) -> None:
    for state in play(game).states:
        for action in engine.legal_actions(state):
            assert isinstance(engine.apply_action(state, action), engine.State)


@heavy_property_settings
@given(game=games)
def test_apply_action_never_changes_its_input(game: Game) -> None:
    for state in play(game).states:
        before = (dump(state), repr(state))
        for action in engine.legal_actions(state):
            engine.apply_action(state, action)
            assert (dump(state), repr(state)) == before, f"{action} changed its input"


@property_settings
@given(game=games)
def test_every_game_ends_within_the_action_bound(game: Game) -> None:
    playout = play(game)  # play() itself fails past ACTION_BOUND actions
    final = playout.states[-1]
    assert final.phase == "game_over"
    assert engine.legal_actions(final) == []
    assert engine.acting_seat(final) is None
    result = engine.outcome(final)
    assert result is not None
    assert list(result.points) == [player.points for player in final.players]
    assert result.winners


@property_settings
@given(game=games)
def test_the_game_waits_on_a_seat_with_options_until_it_is_over(game: Game) -> None:
    for state in play(game).states[:-1]:
        assert engine.outcome(state) is None
        assert engine.acting_seat(state) == state.current
        assert engine.legal_actions(state), f"no options in phase {state.phase}"


@property_settings
@given(game=games)
def test_replaying_the_actions_from_the_setup_gives_the_same_states(game: Game) -> None:
    playout = play(game)
    state = engine.initial_state(playout.setup)
    replayed = [state]
    for action in playout.actions:
        state = engine.apply_action(state, action)
        replayed.append(state)
    assert replayed == playout.states


@property_settings
@given(game=games)
def test_every_state_round_trips_through_json(game: Game) -> None:
    for state in play(game).states:
        data = json.loads(json.dumps(engine.state_to_json(state)))
        assert engine.state_from_json(data) == state


@property_settings
@given(game=games)
def test_the_setup_round_trips_through_json(game: Game) -> None:
    setup = play(game).setup
    data = json.loads(json.dumps(engine.setup_to_json(setup)))
    assert engine.setup_from_json(data) == setup
    assert engine.initial_state(engine.setup_from_json(data)) == engine.initial_state(setup)


@heavy_property_settings
@given(game=games)
def test_every_legal_action_round_trips_through_json(game: Game) -> None:
    for state in play(game).states:
        for action in engine.legal_actions(state):
            variants = [action]
            if isinstance(action, BuyCard):
                payments = engine.payment_options(state, action.card)
                variants += [BuyCard(action.card, payment) for payment in payments]
            for variant in variants:
                data = json.loads(json.dumps(engine.action_to_json(variant)))
                assert engine.action_from_json(data, "splendor") == variant


@heavy_property_settings
@given(game=games)
def test_a_view_shows_exactly_the_cards_its_viewer_may_see(game: Game) -> None:
    for state in play(game).states:
        for viewer, text in views(state):
            assert_view_shows_only_visible_cards(state, viewer, text)


@heavy_property_settings
@given(game=games)
def test_a_view_never_contains_the_seed(game: Game) -> None:
    playout = play(game)
    for state in playout.states:
        for _viewer, text in views(state):
            assert_view_has_no_seed(playout.setup.seed, text)


def test_seeded_playout_is_reproducible() -> None:
    for players in (2, 3, 4):
        game = Game(players, seed=2**40 + players, chooser_seed=7, reluctant_buyer=False)
        first, second = play(game), play(game)
        assert first.setup == second.setup
        assert first.actions == second.actions
        assert [dump(state) for state in first.states] == [dump(state) for state in second.states]
        assert first.states == second.states
        other = play(game._replace(seed=game.seed + 1))
        assert other.setup.decks != first.setup.decks, "a different seed, the same shuffle"


# The checkers can fail ------------------------------------------------------------------------


def a_mid_game_state() -> tuple[engine.State, int]:
    """A state some way into a game, with a blind reserve held by seat 0."""
    setup = engine.new_game("splendor", 3, 2**40)
    state = engine.initial_state(setup)
    rng = random.Random(1)
    state = engine.apply_action(
        state, engine.action_from_json({"type": "reserve_from_deck", "level": 2}, "splendor")
    )
    for _ in range(20):
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    assert state.players[0].blind
    assert state.phase != "game_over"
    return state, setup.seed


def with_player(state: engine.State, seat: int, **changes: Any) -> engine.State:
    players = list(state.players)
    players[seat] = players[seat]._replace(**changes)
    return state._replace(players=tuple(players))


def corruptions() -> list[tuple[str, Callable[[engine.State], engine.State], Callable[..., None]]]:
    def lose_a_white(state: engine.State) -> engine.State:
        return state._replace(supply=(state.supply[0] - 1, *state.supply[1:]))

    def duplicate_a_board_card(state: engine.State) -> engine.State:
        card = state.board[0][0]
        return with_player(state, 1, cards=(*state.players[1].cards, card))

    def drop_a_deck_card(state: engine.State) -> engine.State:
        return state._replace(decks=(state.decks[0][1:], *state.decks[1:]))

    def give_eleven_tokens(state: engine.State) -> engine.State:
        player = state.players[1]
        gained = 11 - sum(player.tokens)
        tokens = (player.tokens[0] + gained, *player.tokens[1:])
        return with_player(state, 1, tokens=tokens)

    def add_a_point(state: engine.State) -> engine.State:
        return with_player(state, 0, points=state.players[0].points + 1)

    return [
        ("lost token", lose_a_white, assert_tokens_conserved),
        ("card in two places", duplicate_a_board_card, assert_every_card_in_one_place),
        ("missing card", drop_a_deck_card, assert_every_card_in_one_place),
        ("eleven tokens", give_eleven_tokens, assert_token_limit_after_turns),
        ("wrong points", add_a_point, assert_points_and_bonuses_derived),
    ]


@pytest.mark.parametrize(
    ("corrupt", "check"),
    [(corrupt, check) for _name, corrupt, check in corruptions()],
    ids=[name for name, _corrupt, _check in corruptions()],
)
def test_the_state_checkers_catch_a_corrupted_state(
    corrupt: Callable[[engine.State], engine.State], check: Callable[[engine.State], None]
) -> None:
    state, _seed = a_mid_game_state()
    check(state)
    with pytest.raises(AssertionError):
        check(corrupt(state))


def test_the_view_checker_catches_a_leaked_deck_card_or_blind_reserve() -> None:
    state, _seed = a_mid_game_state()
    seen = engine.view(state, 1)
    assert_view_shows_only_visible_cards(state, 1, json.dumps(seen))
    deck_card = {"id": state.decks[2][0], "level": 3, "colour": "red"}
    peeking = json.dumps({**seen, "peek": [deck_card]})
    with pytest.raises(AssertionError, match="hidden"):
        assert_view_shows_only_visible_cards(state, 1, peeking)
    owners_view = json.dumps(engine.view(state, 0))
    with pytest.raises(AssertionError, match="hidden"):
        assert_view_shows_only_visible_cards(state, 1, owners_view)
    blind = state.players[0].blind[0]
    assert blind in card_ids_in(owners_view)
    assert blind not in card_ids_in(json.dumps(seen))
    assert state.board[0][0] is not None
    dropped = {**seen, "board": [[None, *seen["board"][0][1:]], *seen["board"][1:]]}
    with pytest.raises(AssertionError, match="sees"):
        assert_view_shows_only_visible_cards(state, 1, json.dumps(dropped))
    deck_order = json.dumps({**seen, "decks": [list(deck) for deck in state.decks]})
    with pytest.raises(AssertionError, match="deck"):
        assert_view_shows_only_visible_cards(state, 1, deck_order)


def test_the_view_checker_catches_a_seed() -> None:
    state, seed = a_mid_game_state()
    seen = engine.view(state, None)
    assert_view_has_no_seed(seed, json.dumps(seen))
    with pytest.raises(AssertionError):
        assert_view_has_no_seed(seed, json.dumps({**seen, "seed": 1}))
    with pytest.raises(AssertionError):
        assert_view_has_no_seed(seed, json.dumps({**seen, "extra": [{"value": seed}]}))
