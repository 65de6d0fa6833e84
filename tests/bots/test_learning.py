"""The Expert's learning core: positions encoded without hidden cards, a network that learns
what it is shown and keeps it on disk, and self-play that records every decision."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import games.engine as engine
from games.bots import expert, features, random_bot, search
from games.bots.duel import expert as duel_expert
from games.bots.duel import features as duel_features
from games.bots.duel import search as duel_search
from games.bots.learning import fit, network, selfplay
from tests.bots.test_bots_see_only_the_view import (
    position_with_a_blind_reserve,
    with_other_hidden_cards,
)


def test_a_blind_reserve_is_encoded_only_as_a_reserved_card_for_the_others() -> None:
    state = position_with_a_blind_reserve()
    other = with_other_hidden_cards(state)
    assert features.seat_rows(state, 0) == features.seat_rows(other, 0)
    # Its owner knows the card, and the card changes how far along they are.
    assert features.seat_rows(state, 1) != features.seat_rows(other, 1)
    rows = features.seat_rows(state, 0)
    assert len(rows) == 2
    assert all(len(row) == features.FEATURES for row in rows)


def test_a_duel_blind_reserve_is_hidden_from_the_opponent() -> None:
    state = engine.initial_state(engine.new_game("duel", 2, 5))
    # An empty pyramid, so that which card is reserved shows in its holder's prospects.
    state = state._replace(pyramid=tuple((None,) * len(row) for row in state.pyramid))
    holder = state.players[1]
    # A level-1 card and a level-3 card: far from the same worth to whoever holds them.
    card, other_card = state.decks[0][0], state.decks[2][0]
    dealt = holder._replace(reserved=(card,), blind=(card,))
    guessed = holder._replace(reserved=(other_card,), blind=(other_card,))
    seen = state._replace(players=(state.players[0], dealt))
    other = state._replace(players=(state.players[0], guessed))
    assert duel_features.seat_rows(seen, 0) == duel_features.seat_rows(other, 0)
    assert duel_features.seat_rows(seen, 1) != duel_features.seat_rows(other, 1)
    assert all(len(row) == duel_features.FEATURES for row in duel_features.seat_rows(seen, 0))


def learnable_positions(count: int, seed: int) -> tuple[np.ndarray, ...]:
    """Two-seat positions in which the seat with the larger first feature wins."""
    generator = np.random.default_rng(seed)
    rows = generator.normal(size=(count, 2, 5))
    winner = (rows[:, 1, 0] > rows[:, 0, 0]).astype(int)
    results = np.zeros((count, 2))
    results[np.arange(count), winner] = 1.0
    seated = np.ones((count, 2), dtype=bool)
    return rows, seated, results, np.arange(count)


def test_training_beats_the_base_rate_on_games_it_never_saw() -> None:
    rows, seated, results, games = learnable_positions(2000, 1)
    settings = fit.FitSettings(hidden=(16,), epochs=20, learning_rate=0.01)
    trained, report = fit.fit(rows, seated, results, games, settings, seed=3)
    assert report.held_out_games == 200
    assert report.base_rate_brier == pytest.approx(0.25)
    assert report.brier < 0.05
    again, second = fit.fit(rows, seated, results, games, settings, seed=3)
    assert second == report
    assert trained.chances(rows[0]) == again.chances(rows[0])


def test_an_empty_seat_gets_no_chance() -> None:
    trained = network.initial(5, (8,), seed=2)
    rows = np.zeros((1, 4, 5))
    seated = np.array([[True, True, True, False]])
    predicted = fit.chances(trained, rows, seated)
    assert predicted[0, 3] == 0.0
    assert predicted[0].sum() == pytest.approx(1.0)


def test_a_network_reads_back_as_it_was_saved(tmp_path: Path) -> None:
    saved = network.initial(features.FEATURES, (64, 32), seed=5)
    saved = network.ValueNetwork(saved.layers, {"seed": 5, "games": 0})
    path = tmp_path / "expert.npz"
    saved.save(path)
    loaded = network.load(path)
    assert loaded.metadata == {"games": 0, "seed": 5}
    rows = features.seat_rows(position_with_a_blind_reserve(), 0)
    assert loaded.chances(rows) == saved.chances(rows)
    assert sum(loaded.chances(rows)) == pytest.approx(1.0)


def test_a_file_that_holds_no_network_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "broken.npz"
    np.savez(path, weights_0=np.zeros((3, 4)), biases_0=np.zeros(4), metadata=np.array("{}"))
    with pytest.raises(ValueError, match="one output"):
        network.load(path)
    np.savez(path, something=np.zeros(3))
    with pytest.raises(ValueError, match="no value network"):
        network.load(path)


def random_player(view: dict[str, object], seed: int) -> engine.Action:
    return random_bot.choose(view, random.Random(seed))


def test_self_play_records_each_decision_and_the_result() -> None:
    played = selfplay.play(
        "splendor", [random_player, random_player, random_player], 9, features.seat_rows
    )
    assert played.rows.shape == (played.actions, 3, features.FEATURES)
    assert sum(played.results) == pytest.approx(1.0)
    rows, results = selfplay.from_bytes(played.to_bytes())
    assert rows.shape == played.rows.shape
    assert np.allclose(rows, played.rows, atol=1e-6)
    stacked, seated, shares, game_of = selfplay.stack([(rows, results)], features.MAX_SEATS)
    assert stacked.shape == (played.actions, 4, features.FEATURES)
    assert seated[:, :3].all()
    assert not seated[:, 3].any()
    assert shares.sum(axis=1) == pytest.approx(1.0)
    assert (game_of == 0).all()
    replayed = selfplay.play("splendor", [random_player] * 3, 9, features.seat_rows)
    assert replayed.results == played.results
    assert replayed.actions == played.actions


def test_an_expert_with_a_provisional_network_plays_as_the_search_bot() -> None:
    """Untrained weights never judge: until a network passes its gate, the Expert is the search
    bot, in both games."""
    state = position_with_a_blind_reserve()
    untrained = network.initial(features.FEATURES, (8,), seed=1)
    provisional = network.ValueNetwork(untrained.layers, {"provisional": True})
    trained = network.ValueNetwork(untrained.layers, {"run": 1})
    assert provisional.provisional
    assert not trained.provisional
    seen = engine.view(state, 0)
    chosen = {seed: search.choose(seen, random.Random(seed), iterations=60) for seed in range(4)}
    for seed, action in chosen.items():
        assert (
            expert.choose(seen, random.Random(seed), network=provisional, iterations=60) == action
        )

    duel = engine.initial_state(engine.new_game("duel", 2, 5))
    duel_seen = engine.view(duel, duel.current)
    duel_untrained = network.initial(duel_features.FEATURES, (8,), seed=1)
    duel_provisional = network.ValueNetwork(duel_untrained.layers, {"provisional": True})
    for seed in range(4):
        assert duel_expert.choose(
            duel_seen, random.Random(seed), network=duel_provisional, iterations=1
        ) == duel_search.choose(duel_seen, random.Random(seed), iterations=1)
