"""Forking a Duel: a new game's setup built from what one viewer saw at some step.

The fork keeps everything the view shows and deals afresh, from its own seed, what it hides: the
decks' order, the cards the other player reserved unseen, and the bag's draw orders. So it can
reveal nothing: two games that look the same to the viewer fork into the same game.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine.duel.actions import ReserveFromDeck, TakeGold
from games.engine.duel.state import DuelState


def _play(seed: int, steps: int, *, blind_reserve: bool = False) -> DuelState:
    """A state after ``steps`` random actions (the first a blind reserve of level 3 if asked)."""
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    rng = random.Random(seed)
    if blind_reserve:
        gold = next(a for a in engine.legal_actions(state) if isinstance(a, TakeGold))
        state = engine.apply_action(engine.apply_action(state, gold), ReserveFromDeck(3))
    for _ in range(steps):
        if engine.outcome(state) is not None:
            break
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    assert isinstance(state, DuelState)
    return state


def _has_gold(seed: int) -> bool:
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    return any(isinstance(action, TakeGold) for action in engine.legal_actions(state))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    viewer=st.sampled_from([None, 0, 1]),
)
def test_a_fork_shows_every_viewer_exactly_what_the_position_showed_its_viewer(
    seed: int, steps: int, viewer: int | None
) -> None:
    state = _play(seed, steps, blind_reserve=_has_gold(seed))
    if engine.outcome(state) is not None:
        return
    seen = engine.view(state, viewer)
    forked = engine.initial_state(engine.setup_from_position(seen, seed + 1))
    assert engine.view(forked, viewer) == seen
    # The fork deals afresh what the viewer could not see. Only a card reserved blind by the
    # player to act can change what they may do (buy it): the decks' and the bag's order cannot.
    acting = engine.acting_seat(state)
    assert acting is not None
    if viewer == acting or not state.players[acting].blind:
        assert engine.legal_actions(forked) == engine.legal_actions(state)


def test_a_fork_deals_the_decks_and_the_bag_draws_afresh_from_its_own_seed() -> None:
    state = _play(7, 20)
    seen = engine.view(state, None)
    first = engine.setup_from_position(seen, 1)
    again = engine.setup_from_position(seen, 1)
    other = engine.setup_from_position(seen, 2)
    assert first == again
    assert first.decks != other.decks
    assert first.decks != state.decks
    assert first.bag_draws != state.bag_draws
    assert first.bag_draws != other.bag_draws
    forked = engine.initial_state(first)
    assert isinstance(forked, DuelState)
    assert [sorted(deck) for deck in forked.decks] == [sorted(deck) for deck in state.decks]
    assert forked.replenishments == 0


def test_a_spectators_fork_deals_a_hidden_reserve_afresh_from_its_level() -> None:
    seed = next(seed for seed in range(100) if _has_gold(seed))
    state = _play(seed, 0, blind_reserve=True)
    seat = 1 - state.current
    dealt = set()
    for fork_seed in range(20):
        forked = engine.initial_state(
            engine.setup_from_position(engine.view(state, None), fork_seed)
        )
        assert isinstance(forked, DuelState)
        dealt.add(forked.players[seat].reserved[0])
        assert forked.players[seat].blind == forked.players[seat].reserved
    assert len(dealt) > 1, "the hidden reserve must not be copied from the real state"
    assert all(engine.card_json(card, "duel")["level"] == 3 for card in dealt)


def test_positions_a_viewer_cannot_tell_apart_fork_into_the_same_game() -> None:
    """Nothing hidden leaks: change every hidden part of a state, the fork stays the same."""
    seed = next(seed for seed in range(100) if _has_gold(seed))
    state = _play(seed, 0, blind_reserve=True)
    seat = 1 - state.current
    player = state.players[seat]
    hidden = player.blind[0]
    swap = state.decks[2][0]
    assert engine.card_json(hidden, "duel")["level"] == 3
    other_hand = player._replace(
        reserved=tuple(swap if card == hidden else card for card in player.reserved),
        blind=tuple(swap if card == hidden else card for card in player.blind),
    )
    twin = state._replace(
        players=tuple(other_hand if index == seat else p for index, p in enumerate(state.players)),
        decks=(state.decks[0][::-1], state.decks[1][::-1], (hidden, *state.decks[2][1:])),
        bag_draws=tuple(order[::-1] for order in state.bag_draws),
        replenishments=state.replenishments + 5,
    )
    viewer = 1 - seat
    assert engine.view(twin, viewer) == engine.view(state, viewer)
    assert engine.setup_from_position(engine.view(twin, viewer), 3) == engine.setup_from_position(
        engine.view(state, viewer), 3
    )


def test_a_forks_setup_survives_its_json_form_and_replays_the_same_game() -> None:
    state = _play(5, 30)
    setup = engine.setup_from_position(engine.view(state, None), 9)
    again = engine.setup_from_json(json.loads(json.dumps(engine.setup_to_json(setup))))
    assert again == setup
    rng = random.Random(4)
    live, replayed = engine.initial_state(setup), engine.initial_state(again)
    for _ in range(60):
        if engine.outcome(live) is not None:
            break
        action = rng.choice(engine.legal_actions(live))
        live, replayed = engine.apply_action(live, action), engine.apply_legal(replayed, action)
        assert live == replayed


def test_a_forks_setup_must_agree_with_its_position() -> None:
    setup = engine.setup_from_position(engine.view(_play(5, 30), None), 9)
    data = engine.setup_to_json(setup)
    data["decks"] = [list(reversed(deck)) for deck in data["decks"]]
    with pytest.raises(engine.MalformedJSON, match="agree with its position"):
        engine.setup_from_json(data)


def test_a_position_where_the_game_is_over_cannot_be_forked() -> None:
    state = _play(3, 5000)
    assert engine.outcome(state) is not None
    with pytest.raises(engine.IllegalAction, match="over"):
        engine.setup_from_position(engine.view(state, None, reveal=True), 1)


def test_a_view_no_game_could_show_is_refused() -> None:
    seen = engine.view(_play(6, 10), None)
    wrong_decks = {**seen, "decks": [size + 1 for size in seen["decks"]]}
    with pytest.raises(engine.MalformedJSON, match="decks"):
        engine.setup_from_position(wrong_decks, 1)
    extra_token = {**seen, "bag": {**seen["bag"], "gold": 9}}
    with pytest.raises(engine.MalformedJSON):
        engine.setup_from_position(extra_token, 1)
    without_players = {key: value for key, value in seen.items() if key != "players"}
    with pytest.raises(engine.MalformedJSON, match="Duel view"):
        engine.setup_from_position(without_players, 1)


def test_a_fork_seen_by_the_opponent_of_a_blind_reserver_may_deal_them_another_card() -> None:
    # Found by the property above: seat 0 reserved card 62 blind, seat 1's fork dealt 59 in its
    # place, which seat 0 could afford; seat 0's own fork keeps 62 and the same actions.
    state = _play(153916, 118, blind_reserve=True)
    assert engine.acting_seat(state) == 0
    assert state.players[0].blind == (62,)
    for viewer, same in ((0, True), (1, False)):
        forked = engine.initial_state(
            engine.setup_from_position(engine.view(state, viewer), 153917)
        )
        assert (engine.legal_actions(forked) == engine.legal_actions(state)) is same, viewer
