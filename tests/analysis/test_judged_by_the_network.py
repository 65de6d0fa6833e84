"""An analysis judges with the strongest bot: the Expert's network once it has passed its gate,
named in the analysis's settings so that one network's judgements are never served as another's."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from games import engine
from games.bots.learning.network import ValueNetwork, initial
from games.variants import game_for
from games.variants.base import NETWORK_SETTING, PositionJudge

BUDGETS = {"splendor": {"iterations": 60}, "duel": {"samples": 1}}


def _judge(variant: str, tmp_path: Path, network: ValueNetwork) -> PositionJudge:
    path = tmp_path / f"{variant}.npz"
    network.save(path)
    judge = game_for(variant).position_judge
    return PositionJudge(budget=BUDGETS[variant], evaluate=judge.evaluate, network=path)


def _even(variant: str) -> ValueNetwork:
    """A trained network's shape whose every weight is zero: it calls every running position
    even."""
    layers = initial(game_for(variant).expert.features, (8,), seed=1).layers
    return ValueNetwork(
        tuple((np.zeros_like(weights), np.zeros_like(biases)) for weights, biases in layers),
        {"run": 1, "variant": variant},
    )


def _opening(variant: str) -> dict[str, object]:
    state = engine.initial_state(engine.new_game(variant, 2, 5))
    return engine.view(state, engine.acting_seat(state))


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_a_network_past_its_gate_judges_and_is_named_in_the_settings(
    variant: str, tmp_path: Path
) -> None:
    network = _even(variant)
    judge = _judge(variant, tmp_path, network)
    settings = judge.settings()
    assert settings[NETWORK_SETTING] == network.fingerprint
    learned = judge.network_for(settings)
    assert learned is not None
    result = judge.evaluate(_opening(variant), random.Random(1), settings, None, learned)
    # No game ends within the lookahead of its opening: the network judged every line even.
    assert {chance for chance, _ in result.estimates.values()} == {0.5}
    by_hand = judge.evaluate(_opening(variant), random.Random(1), settings, None, None)
    assert {chance for chance, _ in by_hand.estimates.values()} != {0.5}


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_a_provisional_network_judges_nothing(variant: str, tmp_path: Path) -> None:
    provisional = ValueNetwork(_even(variant).layers, {"provisional": True})
    judge = _judge(variant, tmp_path, provisional)
    settings = judge.settings()
    assert NETWORK_SETTING not in settings
    assert judge.network_for(settings) is None


def test_settings_that_name_another_network_are_refused(tmp_path: Path) -> None:
    judge = _judge("duel", tmp_path, _even("duel"))
    with pytest.raises(ValueError, match="installed"):
        judge.network_for({"samples": 1, NETWORK_SETTING: "0123456789abcdef"})


def test_a_network_trained_otherwise_has_another_fingerprint() -> None:
    features = game_for("duel").expert.features
    first, second = initial(features, (8,), seed=1), initial(features, (8,), seed=2)
    assert first.fingerprint != second.fingerprint
    assert first.fingerprint == initial(features, (8,), seed=1).fingerprint


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_each_games_analysis_names_its_installed_network_when_that_judges(variant: str) -> None:
    game = game_for(variant)
    judge = game.position_judge
    assert judge.network == game.expert.network
    installed = judge.learned()
    expected = None if installed is None else installed.fingerprint
    assert judge.settings().get(NETWORK_SETTING) == expected
