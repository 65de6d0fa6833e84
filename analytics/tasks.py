"""Celery tasks of analytics, on their own queue (``analytics``) so statistics never hold up a
bot's move. Doors, not rooms: each takes an id and calls ``analytics.projections``, which counts
a game at most once however often the task runs."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from kombu.exceptions import OperationalError as BrokerUnavailable

from analytics import projections
from games.commands.task_queue import enqueue
from games.models import Game
from games.vocabulary import Status

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
def count_finished_game(game_id: int) -> str:
    return projections.count_game(game_id)


@shared_task
def catch_up_analytics() -> int:
    """Queue every finished game a projection has not counted (a lost message, a dead worker).

    Beat runs this every ``ANALYTICS_CATCH_UP_INTERVAL_SECONDS``; queuing a game twice is
    harmless, since the second count finds it counted.
    """
    games = projections.uncounted_finished_games(settings.ANALYTICS_CATCH_UP_BATCH)
    for game_id in games:
        enqueue(count_finished_game, game_id)
    if games:
        logger.info("queued %s finished game(s) for analytics", len(games))
    return len(games)


def queue_count_if_finished(game_id: int, version: int) -> None:
    """After-commit hook of the commands: count the game once its last event is its finish."""
    if not Game.objects.filter(pk=game_id, version=version, status=Status.FINISHED).exists():
        return
    try:
        enqueue(count_finished_game, game_id)
    except BrokerUnavailable as error:
        logger.warning(
            "broker unavailable, game %s left to the analytics catch-up: %s", game_id, error
        )
