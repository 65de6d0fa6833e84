"""Sending Celery tasks to the workers, or running them here in the embedded mode.

The commands' follow-ups (``games.commands.after_commit``) and the doors of every app queue their
tasks through ``enqueue``: with a broker, a publish bounded in time (``publish``), so a committed
move never waits long for the broker; without one (``CELERY_TASK_ALWAYS_EAGER``), a flat queue
drained in this process.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from celery import Task
from django.conf import settings
from kombu.exceptions import OperationalError as BrokerUnavailable

logger = logging.getLogger(__name__)


class PublishTimedOut(BrokerUnavailable):
    """The broker did not take the message within ``BROKER_PUBLISH_WAIT_SECONDS``."""


def publish(task: Task, *args: Any, **options: Any) -> None:
    """Send ``task`` to the broker, waiting at most ``BROKER_PUBLISH_WAIT_SECONDS``.

    A broker whose port accepts connections but never answers would hold the caller for the
    socket timeouts of every publishing try (seconds); a player's committed move must not wait
    for that. The send runs in a thread of its own: if it has not finished in time, the caller
    goes on (``PublishTimedOut``) while the thread finishes or fails on its own. Either way the
    message arrives or the sweeper queues the turn again; tasks are idempotent, so both is fine.
    The thread only talks to the broker, never to the database.
    """
    failures: list[BaseException] = []

    def send() -> None:
        try:
            task.apply_async(args, **options)
        except BaseException as error:  # handed to the caller, or logged if it left
            failures.append(error)
            if not waiting.is_set():
                logger.warning("publishing %s%r failed after the wait: %s", task.name, args, error)

    waiting = threading.Event()
    waiting.set()
    sender = threading.Thread(target=send, name=f"publish-{task.name}", daemon=True)
    sender.start()
    sender.join(settings.BROKER_PUBLISH_WAIT_SECONDS)
    waiting.clear()
    if sender.is_alive():
        raise PublishTimedOut(
            f"the broker did not answer within {settings.BROKER_PUBLISH_WAIT_SECONDS} s"
        )
    if failures:
        raise failures[0]


_draining = threading.local()


def enqueue(task: Task, *args: Any, queue: str | None = None) -> None:
    """Send a task to the broker (to ``queue``, else the task's default); in embedded mode, run
    it here, one after another.

    Run eagerly, a bot's move would queue the next bot's move from inside its own commit,
    nesting a whole bot-against-bot game on the stack. Tasks queued while one runs wait in a
    queue that the outermost call drains, so embedded games play in a flat loop. A task that
    fails does not stop the others; the first failure is raised once the queue is empty.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        publish(task, *args, **({"queue": queue} if queue else {}))
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
