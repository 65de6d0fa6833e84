"""Celery doors of the operations app: beat's heartbeat."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import beat_init

from operations import heartbeat


@shared_task(ignore_result=True)
def record_beat_heartbeat() -> int:
    """Queued by beat every ``BEAT_HEARTBEAT_INTERVAL_SECONDS``; the health check reads its age."""
    return heartbeat.beat_heartbeat_record()


@beat_init.connect
def queue_a_heartbeat_as_beat_starts(**kwargs: Any) -> None:
    """Beat's schedule first sends the heartbeat one interval after it starts: until then the
    health check would call a stack that just started unhealthy. The heartbeat still goes
    through a worker of the default queue, so it shows that worker too."""
    record_beat_heartbeat.delay()
