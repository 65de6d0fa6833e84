"""Forking: a new game's setup built from what one viewer saw at some position.

The fork keeps everything the view shows and deals afresh, from its own seed, what it hides:
the decks' order and other players' blind reserves. So it can reveal nothing.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine.splendor.actions import ReserveFromDeck


def _play(players: int, seed: int, steps: int, *, blind_reserve: bool = False) -> engine.State:
    """A state after ``steps`` random actions (the first a blind reserve when asked)."""
    state = engine.initial_state(engine.new_game("splendor", players, seed))
    rng = random.Random(seed)
    if blind_reserve:
        state = engine.apply_action(state, ReserveFromDeck(3))
    for _ in range(steps):
        if engine.outcome(state) is not None:
            break
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    return state


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
    viewer=st.sampled_from([None, 0, 1]),
)
def test_a_fork_shows_every_viewer_what_the_position_showed_its_viewer(
    players: int, seed: int, steps: int, viewer: int | None
) -> None:
    state = _play(players, seed, steps, blind_reserve=True)
    if engine.outcome(state) is not None:
        return
    seen = engine.view(state, viewer)
    forked = engine.initial_state(engine.setup_from_position(seen, seed + 1))
    assert engine.view(forked, viewer) == seen


def test_a_fork_deals_the_decks_afresh_from_its_own_seed() -> None:
    state = _play(2, 7, 10)
    seen = engine.view(state, None)
    first = engine.setup_from_position(seen, 1)
    again = engine.setup_from_position(seen, 1)
    other = engine.setup_from_position(seen, 2)
    assert first == again
    assert first.decks != other.decks
    assert first.decks != state.decks
    assert _unseen(engine.initial_state(first)) == _unseen(state)


def _unseen(state: engine.State) -> list[list[int]]:
    """Each level's cards a spectator cannot see: its deck and the blind reserves."""
    blind = [card for player in state.players for card in player.blind]
    return [
        sorted(
            [
                *deck,
                *(card for card in blind if engine.card_json(card, "splendor")["level"] == level),
            ]
        )
        for level, deck in enumerate(state.decks, start=1)
    ]


def test_a_spectators_fork_deals_other_players_blind_reserves_afresh() -> None:
    state = _play(2, 11, 0, blind_reserve=True)
    dealt = {
        engine.initial_state(engine.setup_from_position(engine.view(state, None), seed))
        .players[0]
        .reserved[0]
        for seed in range(20)
    }
    assert len(dealt) > 1, "the hidden reserve must not be copied from the real state"
    assert all(engine.card_json(card, "splendor")["level"] == 3 for card in dealt)
    assert engine.view(state, None)["players"][0]["reserved"] == [{"hidden": True, "level": 3}]


def test_a_fork_depends_only_on_the_view_not_on_the_hidden_cards() -> None:
    state = _play(3, 5, 12, blind_reserve=True)
    shuffled = state._replace(decks=tuple(tuple(reversed(deck)) for deck in state.decks))
    assert engine.view(shuffled, 1) == engine.view(state, 1)
    assert engine.setup_from_position(engine.view(state, 1), 9) == engine.setup_from_position(
        engine.view(shuffled, 1), 9
    )


def test_the_owner_keeps_their_own_blind_reserve_when_forking_from_their_seat() -> None:
    state = _play(2, 3, 0, blind_reserve=True)
    forked = engine.initial_state(engine.setup_from_position(engine.view(state, 0), 4))
    assert forked.players[0].reserved == state.players[0].reserved
    assert forked.players[0].blind == state.players[0].blind


def test_a_fork_setup_round_trips_through_json_and_plays_on() -> None:
    state = _play(4, 21, 30)
    setup = engine.setup_from_position(engine.view(state, None), 77)
    data = engine.setup_to_json(setup)
    assert data["position"]["turn"] == state.turn
    assert engine.setup_from_json(data) == setup
    forked = engine.initial_state(engine.setup_from_json(data))
    engine.apply_action(forked, engine.legal_actions(forked)[0])


def test_a_fork_setup_whose_decks_disagree_with_its_position_is_refused() -> None:
    setup = engine.setup_from_position(engine.view(_play(2, 1, 4), None), 3)
    data = engine.setup_to_json(setup)
    data["decks"] = [list(reversed(deck)) for deck in data["decks"]]
    with pytest.raises(engine.MalformedJSON, match="agree with its position"):
        engine.setup_from_json(data)


def test_a_finished_position_cannot_be_forked() -> None:
    state = _play(2, 2, 3000)
    assert engine.outcome(state) is not None
    with pytest.raises(engine.IllegalAction, match="over"):
        engine.setup_from_position(engine.view(state, None, reveal=True), 1)


def test_a_view_no_game_could_show_is_refused() -> None:
    seen = engine.view(_play(2, 1, 0), None)
    seen["supply"] = {**seen["supply"], "gold": 9}
    with pytest.raises(engine.MalformedJSON):
        engine.setup_from_position(seen, 1)
    with pytest.raises(engine.MalformedJSON):
        engine.setup_from_position({"variant": "splendor"}, 1)
