"""A training run's games played by a real Celery worker through Redis, on PostgreSQL.

``train_expert`` queues its games on the ``training`` queue and waits for their rows while the
worker plays them; the fit runs in the command's child process, never in the worker. A game's
task delivered twice stores the game once.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from splendor_site.celery import app as celery_app
from tests.integration.conftest import StartWorker
from training.models import GateGame, RunStatus, SelfPlayGame, TrainingRun
from training.tasks import play_selfplay_game

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_training_tasks_go_to_their_own_queue() -> None:
    for task in ("training.tasks.play_selfplay_game", "training.tasks.play_gate_game"):
        assert celery_app.amqp.router.route({}, task)["queue"].name == "training"
    assert celery_app.amqp.router.route({}, "games.tasks.play_bot_turn")["queue"].name != (
        "training"
    )


def test_a_tiny_run_plays_its_games_on_the_worker(
    start_worker: StartWorker, settings: Any, tmp_path: Path
) -> None:
    worker = start_worker()
    settings.TRAINING_DIR = tmp_path / "training"
    out = io.StringIO()

    call_command(
        "train_expert", "--variant", "splendor", "--games", "4", "--epochs", "1",
        "--gate-games", "2", "--iterations", "2", "--seed", "5", "--threshold", "0",
        "--network-path", str(tmp_path / "expert.npz"), "--timeout", "120",
        stdout=out,
    )  # fmt: skip

    run = TrainingRun.objects.get()
    assert run.status == RunStatus.DONE
    assert run.accepted is True
    assert SelfPlayGame.objects.filter(run=run).count() == 4
    assert GateGame.objects.filter(run=run).count() == 2
    log = worker.log()
    assert log.count("play_selfplay_game") >= 4
    assert log.count("play_gate_game") >= 2
    assert "games generated: 4" in out.getvalue()


def test_a_selfplay_task_delivered_twice_stores_one_game(start_worker: StartWorker) -> None:
    worker = start_worker()
    run = TrainingRun.objects.create(
        variant="splendor", seats=2, seed=8, settings={"iterations": 2}, champion="search bot"
    )

    first = play_selfplay_game.delay(run.pk, 0)
    again = play_selfplay_game.delay(run.pk, 0)

    worker.wait_for_log(rf"play_selfplay_game\[{first.id}\] succeeded in \S+: 'played'")
    worker.wait_for_log(rf"play_selfplay_game\[{again.id}\] succeeded in \S+: 'played already'")
    assert SelfPlayGame.objects.filter(run=run).count() == 1
