"""Determinisation: sampled states keep everything a seat sees and deal only what it cannot."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import games.engine as engine
from games.bots.determinize import Determinizer, sample_state
from games.engine import State
from games.engine.splendor.actions import ReserveFromDeck
from games.engine.splendor.catalogue import CARDS

ALL_CARDS = set(range(90))


def reserving_playout(players: int, seed: int) -> Iterator[State]:
    """Every state of a seeded random game whose players like reserving from the decks."""
    rng = random.Random(seed)
    state = engine.initial_state(engine.new_game("splendor", players, seed))
    yield state
    while engine.outcome(state) is None:
        actions = engine.legal_actions(state)
        blind = [action for action in actions if isinstance(action, ReserveFromDeck)]
        action = rng.choice(blind) if blind and rng.random() < 0.3 else rng.choice(actions)
        state = engine.apply_action(state, action)
        yield state


def blind_reserves(state: State) -> list[int]:
    return [card for player in state.players for card in player.blind]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sample_shows_every_seat_what_the_real_state_shows(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        for state in reserving_playout(players, seed):
            for seat in (*range(players), None):
                seen = engine.view(state, seat)
                sample = sample_state(seen, rng)
                assert engine.state_from_json(engine.state_to_json(sample)) == sample
                assert engine.view(sample, seat) == seen
                checked += 1
    assert checked > 500


def test_hidden_cards_are_dealt_at_random_and_the_visible_ones_are_kept() -> None:
    state = next(
        state
        for state in reserving_playout(3, 11)
        if state.turn > 12 and len(blind_reserves(state)) >= 2
    )
    seen = engine.view(state, 0)
    samples = [sample_state(seen, random.Random(seed)) for seed in range(20)]
    assert len({sample.decks for sample in samples}) == 20
    for sample in samples:
        assert sample.board == state.board
        assert sample.supply == state.supply
        assert sample.nobles == state.nobles
        for real, dealt in zip(state.players, sample.players, strict=True):
            assert (dealt.tokens, dealt.cards, dealt.nobles) == (
                real.tokens,
                real.cards,
                real.nobles,
            )
            assert len(dealt.reserved) == len(real.reserved)
            assert [CARDS[card].level for card in dealt.reserved] == [
                CARDS[card].level for card in real.reserved
            ]
        assert [len(deck) for deck in sample.decks] == [len(deck) for deck in state.decks]
        assert sample.players[0].reserved == state.players[0].reserved


def test_a_hidden_reserve_is_never_a_card_in_plain_sight() -> None:
    state = next(s for s in reserving_playout(2, 5) if s.players[1].blind and s.turn > 10)
    seen = engine.view(state, 0)
    visible = {card for row in state.board for card in row if card is not None}
    for player in state.players:
        visible.update(player.cards)
    visible.update(card for card in state.players[1].reserved if card not in state.players[1].blind)
    visible.update(state.players[0].reserved)
    for seed in range(30):
        sample = sample_state(seen, random.Random(seed))
        assert not set(sample.players[1].blind) & visible
        assert set(sample.players[1].blind) | {c for d in sample.decks for c in d} == (
            ALL_CARDS - visible
        )


def test_empty_slots_and_empty_decks_are_kept() -> None:
    state = engine.initial_state(engine.new_game("splendor", 2, 4))
    emptied = state.board[2][0]
    assert emptied is not None
    data = engine.state_to_json(state)
    data["players"][1]["cards"] = [*state.decks[2], emptied]
    data["decks"][2] = []
    data["board"][2][0] = None
    state = engine.state_from_json(data)
    for seat in (0, 1, None):
        seen = engine.view(state, seat)
        sample = sample_state(seen, random.Random(0))
        assert sample.decks[2] == ()
        assert sample.board[2][0] is None
        assert engine.view(sample, seat) == seen


def test_the_same_seed_deals_the_same_cards() -> None:
    state = next(s for s in reserving_playout(4, 2) if len(blind_reserves(s)) >= 2)
    seen = engine.view(state, 3)
    assert sample_state(seen, random.Random(9)) == sample_state(seen, random.Random(9))
    determinizer = Determinizer(seen)
    assert determinizer.sample(random.Random(9)) == sample_state(seen, random.Random(9))


def test_passes_this_round_is_taken_from_the_view_when_it_is_there() -> None:
    state = engine.initial_state(engine.new_game("splendor", 2, 1))
    seen = engine.view(state, 0)
    assert sample_state(seen, random.Random(0)).passes_this_round == 0
    assert sample_state({**seen, "passes_this_round": 1}, random.Random(0)).passes_this_round == 1


def test_a_view_that_does_not_add_up_is_refused() -> None:
    state = engine.initial_state(engine.new_game("splendor", 2, 1))
    seen = engine.view(state, 0)
    with pytest.raises(ValueError, match="unseen"):
        sample_state({**seen, "decks": [35, 26, 16]}, random.Random(0))
    with pytest.raises(TypeError):
        sample_state(state, random.Random(0))  # type: ignore[arg-type]
