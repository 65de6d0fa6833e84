"""The analysis task, on a queue of its own (``analysis``, settings ``CELERY_TASK_ROUTES``), so
that a long analysis never delays a bot's turn, statistics or mail: its own worker line in the
Procfile and README."""

from __future__ import annotations

from celery import shared_task

from analysis import runner


@shared_task(acks_late=True)
def analyse_game(analysis_id: int) -> str:
    return runner.run_analysis(analysis_id)
