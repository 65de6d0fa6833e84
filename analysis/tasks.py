"""The analysis task, on a queue of its own (``analysis``, settings ``CELERY_TASK_ROUTES``), so
that a long analysis never delays a bot's turn, statistics or mail: its own worker line in the
Procfile and README.

A worker that dies mid-analysis (docs/decisions/0142): the task acknowledges late, so a worker
process killed outright leaves its message with the broker, which hands it out again after the
visibility timeout (an hour); the run claims the analysis only if it is still stalled then
(``analysis.runner``). No ``reject_on_worker_lost``: an analysis that kills its worker (memory)
would be redelivered at once, for ever; the stalled analysis waits for a person's request
instead (``ANALYSIS_STALLED_AFTER_SECONDS``), which restarts it as a new attempt. The time limits
stay below the visibility timeout, so the broker never hands a running analysis to a second
worker.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from analysis import runner


@shared_task(
    acks_late=True,
    soft_time_limit=settings.ANALYSIS_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.ANALYSIS_TASK_TIME_LIMIT,
)
def analyse_game(analysis_id: int, attempt: int | None = None) -> str:
    return runner.run_analysis(analysis_id, attempt)
