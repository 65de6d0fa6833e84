"""``manage.py train_expert`` end to end, tasks in-process: a tiny run of the base game stores
its games, fits a candidate in a child process, plays the gate, and accepts or refuses it by the
threshold; an accepted network is installed only where asked, with where it came from."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError

from games.bots.learning import selfplay
from games.bots.learning.network import initial, load
from training.games import expert_of
from training.models import GateGame, RunStatus, SelfPlayGame, TrainingRun
from training.playing import gate_seed, selfplay_seed

pytestmark = pytest.mark.django_db

Train = Callable[..., str]


def test_a_tiny_run_accepted_at_threshold_zero_is_installed_with_its_provenance(
    train: Train, installed_path: Path, settings: object
) -> None:
    output = train("--seed", "11", "--threshold", "0", "--install")

    run = TrainingRun.objects.get()
    assert run.status == RunStatus.DONE
    assert run.accepted is True
    assert run.champion.startswith("search bot")
    games = list(SelfPlayGame.objects.filter(run=run).order_by("index"))
    assert [game.index for game in games] == [0, 1, 2, 3]
    assert [game.seed for game in games] == [selfplay_seed(11, index) for index in range(4)]
    stored = [selfplay.from_bytes(bytes(game.data)) for game in games]
    for game, (rows, results) in zip(games, stored, strict=True):
        assert rows.shape == (game.positions, 2, expert_of("splendor").features)
        assert sorted(results.tolist()) in ([0.0, 1.0], [0.5, 0.5])
    assert run.games_generated == 4
    assert run.positions == sum(game.positions for game in games)
    gate = list(GateGame.objects.filter(run=run).order_by("index"))
    # The one deal of a two-game gate, played from both chairs.
    assert [game.candidate_seat for game in gate] == [0, 1]
    assert {game.seed for game in gate} == {gate_seed(11, 0)}
    assert run.gate_result["games"] == 2
    assert run.gate_result["score"] == pytest.approx(sum(game.candidate_score for game in gate) / 2)
    cpu = sum(game.cpu_seconds for game in games) + sum(game.cpu_seconds for game in gate)
    assert run.worker_cpu_seconds == pytest.approx(cpu, abs=0.01)
    assert run.fit_cpu_seconds > 0

    candidate_path = Path(run.candidate_path)
    assert candidate_path == settings.TRAINING_DIR / f"{run.pk}.npz"  # type: ignore[attr-defined]
    candidate = load(candidate_path)
    metadata = candidate.metadata
    assert metadata["provisional"] is False
    assert metadata["run"] == run.pk
    assert metadata["variant"] == "splendor"
    assert metadata["seeds"]["run"] == 11
    assert metadata["settings"]["games"] == 4
    assert metadata["settings"]["fit"]["epochs"] == 1
    assert metadata["data"] == {"games": 4, "positions": run.positions, "runs": [run.pk]}
    assert metadata["fit"] == run.fit_report
    assert metadata["fit"]["positions"] == run.positions
    assert metadata["gate"] == run.gate_result
    assert metadata["gate"]["threshold"] == 0.0
    assert metadata["accepted"] is True
    assert metadata["cpu_hours"]["workers"] == pytest.approx(cpu / 3600, abs=1e-4)
    assert candidate.inputs == expert_of("splendor").features

    assert run.installed_path == str(installed_path)
    assert installed_path.read_bytes() == candidate_path.read_bytes()
    assert "games generated: 4" in output
    assert f"positions fit on: {run.positions}" in output
    assert "accepted" in output


def test_a_threshold_above_one_refuses_and_installs_nothing(
    train: Train, installed_path: Path
) -> None:
    output = train("--seed", "12", "--threshold", "1.01", "--install")

    run = TrainingRun.objects.get()
    assert run.status == RunStatus.DONE
    assert run.accepted is False
    assert run.installed_path == ""
    assert not installed_path.exists()
    assert load(Path(run.candidate_path)).metadata["accepted"] is False
    assert "refused" in output


def test_an_accepted_network_is_installed_only_when_asked(
    train: Train, installed_path: Path
) -> None:
    train("--seed", "13", "--threshold", "0", "--no-install")

    assert TrainingRun.objects.get().accepted is True
    assert not installed_path.exists()


def test_the_installed_network_is_the_next_runs_champion_unless_provisional(
    train: Train, installed_path: Path
) -> None:
    installed_path.parent.mkdir(parents=True)
    provisional = initial(expert_of("splendor").features, (8,), seed=1)
    provisional = type(provisional)(provisional.layers, {"provisional": True})
    provisional.save(installed_path)
    train("--seed", "14", "--threshold", "0", "--install")
    first = TrainingRun.objects.get()
    assert first.champion_network is None
    assert first.champion.startswith("search bot")
    assert load(installed_path).metadata["run"] == first.pk

    train("--seed", "15", "--threshold", "1.01", "--with-accepted-runs")

    second = TrainingRun.objects.exclude(pk=first.pk).get()
    assert second.champion == f"Expert (run {first.pk})"
    assert bytes(second.champion_network) == installed_path.read_bytes()
    # Fit on its own games and the accepted first run's.
    first_positions = sum(game.positions for game in SelfPlayGame.objects.filter(run=first))
    own_positions = sum(game.positions for game in SelfPlayGame.objects.filter(run=second))
    assert second.positions == first_positions + own_positions
    assert second.settings["data_runs"] == [second.pk, first.pk]


def test_a_refused_runs_games_are_fit_on_when_named(train: Train) -> None:
    train("--seed", "16", "--threshold", "1.01")
    refused = TrainingRun.objects.get()
    assert refused.accepted is False

    train("--seed", "17", "--threshold", "1.01", "--with-runs", str(refused.pk))

    second = TrainingRun.objects.exclude(pk=refused.pk).get()
    assert second.settings["data_runs"] == [second.pk, refused.pk]
    assert second.positions == sum(game.positions for game in SelfPlayGame.objects.all())
    with pytest.raises(CommandError, match="no earlier splendor run 999"):
        train("--seed", "18", "--with-runs", "999")
    assert TrainingRun.objects.count() == 2


def test_the_same_seed_makes_the_same_games_and_network(train: Train) -> None:
    def run_of(seed: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
        train("--seed", seed, "--threshold", "2")
        run = TrainingRun.objects.order_by("-pk").first()
        assert run is not None
        stored = SelfPlayGame.objects.filter(run=run).order_by("index")
        games = [
            selfplay.from_bytes(bytes(data))[0] for data in stored.values_list("data", flat=True)
        ]
        weights = [array for layer in load(Path(run.candidate_path)).layers for array in layer]
        return games, weights

    (first, first_weights), (again, again_weights), (other, _) = (
        run_of("21"),
        run_of("21"),
        run_of("22"),
    )
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(first_weights, again_weights, strict=True))
    assert not np.array_equal(first[0], other[0])


def test_a_gate_that_cannot_alternate_seats_is_refused(train: Train) -> None:
    with pytest.raises(CommandError, match="multiple of --seats"):
        train("--gate-games", "3")
    assert not TrainingRun.objects.exists()
