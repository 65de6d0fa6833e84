"""Celery tasks: doors, not rooms. Each takes ids and a version, loads, calls a service.

A task delivered twice, or late, changes nothing: the service refuses a stale expected version,
so ``acks_late`` (redelivery after a worker dies) is safe. Whatever is lost on the way — a
message the broker never got, a worker killed mid-turn — ``sweep_stuck_bot_turns`` queues again.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from games import bots, engine, selectors, services
from games.errors import GameError, StaleVersion
from games.models import Game, Seat

logger = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    # No reject_on_worker_lost: a turn whose worker died is picked up by the sweeper, while
    # redelivering it at once could loop forever on a turn that kills its worker every time
    # (out of memory in the search, say).
    # Well below the broker's visibility timeout, so a stuck turn is killed, not redelivered
    # while it still runs.
    soft_time_limit=settings.BOT_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.BOT_TASK_TIME_LIMIT,
)
def play_bot_turn(game_id: int, expected_version: int) -> str:
    """Let the bot the game waits for choose and play one action at ``expected_version``.

    Returns what happened: "played", "stale" (the game is no longer at that version, so another
    delivery or a human got there first) or "no bot to play".
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version:
        return "stale"
    turn = selectors.game_bot_turn(game)
    if turn is None:
        return "no bot to play"
    seat, level, view = turn
    action = bots.choose_action(
        level,
        view,
        # The same game and version always give the same choice: replays and retries agree.
        seed=game_id * 1_000_003 + expected_version,
        budget_seconds=settings.BOT_SEARCH_SECONDS,
    )
    try:
        services.game_take_action(
            game_id=game_id,
            action=engine.action_to_json(action),
            expected_version=expected_version,
            as_bot=True,
        )
    except StaleVersion:
        return "stale"
    except GameError as error:
        # The service checks the game's status before its version, so a game aborted while the
        # bot was thinking answers "not in progress": that is a late delivery, not a failure.
        if _has_moved_on(game_id, expected_version):
            return "stale"
        logger.error("bot in seat %s of game %s failed: %s", seat, game_id, error.message)
        raise  # a bot must never stall a game silently
    return "played"


@shared_task
def sweep_stuck_bot_turns() -> int:
    """Queue again the bot turns that have waited too long (a lost message, a dead worker).

    Beat runs this every ``BOT_SWEEP_INTERVAL_SECONDS``. A turn counts as stuck when the game
    has waited for a bot longer than ``BOT_TURN_STUCK_AFTER_SECONDS``; queuing one that is only
    slow is harmless, since the second delivery finds the game moved on.
    """
    waited_since = timezone.now() - timedelta(seconds=settings.BOT_TURN_STUCK_AFTER_SECONDS)
    stuck = Game.objects.filter(
        status=Game.Status.ACTIVE,
        updated_at__lt=waited_since,
        seats__index=F("acting_seat"),
        seats__bot_level__gt="",
    ).values_list("pk", "version")
    count = 0
    for game_id, version in stuck:
        enqueue(play_bot_turn, game_id, version)
        count += 1
    if count:
        logger.info("queued %s stuck bot turn(s) again", count)
    return count


def queue_bot_turn(game_id: int, version: int) -> None:
    """Queue a bot turn if the game, still at ``version``, waits for a bot (asks the database)."""
    waits_for_bot = Seat.objects.filter(
        game_id=game_id,
        game__status=Game.Status.ACTIVE,
        game__version=version,
        index=F("game__acting_seat"),
        bot_level__gt="",
    ).exists()
    if waits_for_bot:
        enqueue_bot_turn(game_id, version)


def enqueue_bot_turn(game_id: int, version: int) -> None:
    """After-commit hook of the services, run when the writer saw that a bot moves next."""
    try:
        enqueue(play_bot_turn, game_id, version)
    except BrokerUnavailable as error:
        # The move that led here is committed and must stand; the sweeper queues the turn once
        # the broker answers again.
        logger.warning(
            "broker unavailable, bot turn of game %s at version %s left to the sweeper: %s",
            game_id,
            version,
            error,
        )


def _has_moved_on(game_id: int, version: int) -> bool:
    return not Game.objects.filter(pk=game_id, version=version).exists()


_draining = threading.local()


def enqueue(task: Task, *args: Any) -> None:
    """Send a task to the broker; in embedded mode, run it here, one after another.

    Run eagerly, a bot's move would queue the next bot's move from inside its own commit,
    nesting a whole bot-against-bot game on the stack. Tasks queued while one runs wait in a
    queue that the outermost call drains, so embedded games play in a flat loop. A task that
    fails does not stop the others; the first failure is raised once the queue is empty.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        task.delay(*args)
        return
    pending: deque[tuple[Task, tuple[Any, ...]]] | None = getattr(_draining, "pending", None)
    if pending is not None:
        pending.append((task, args))
        return
    _draining.pending = pending = deque([(task, args)])
    first_failure: Exception | None = None
    try:
        while pending:
            next_task, next_args = pending.popleft()
            try:
                # Called directly, not through apply(): same code, without a log line per task.
                next_task(*next_args)
            except Exception as error:
                if first_failure is None:
                    first_failure = error
                else:
                    logger.exception("task %s%r failed", next_task.name, next_args)
    finally:
        _draining.pending = None
    if first_failure is not None:
        raise first_failure
