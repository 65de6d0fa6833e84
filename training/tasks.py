"""The training run's tasks, on a queue of their own (``training``, settings
``CELERY_TASK_ROUTES``): a run's hundreds of games never delay a bot's turn, statistics, an
analysis or mail. Its own worker line in the Procfile and README, at a lower CPU priority."""

from __future__ import annotations

from celery import shared_task

from training import playing


@shared_task(acks_late=True)
def play_selfplay_game(run_id: int, index: int) -> str:
    return playing.play_selfplay_game(run_id, index)


@shared_task(acks_late=True)
def play_gate_game(run_id: int, index: int) -> str:
    return playing.play_gate_game(run_id, index)
