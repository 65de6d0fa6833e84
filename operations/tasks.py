"""Celery doors of the operations app: beat's heartbeat."""

from __future__ import annotations

from celery import shared_task

from operations import heartbeat


@shared_task(ignore_result=True)
def record_beat_heartbeat() -> int:
    """Queued by beat every ``BEAT_HEARTBEAT_INTERVAL_SECONDS``; the health check reads its age."""
    return heartbeat.beat_heartbeat_record()
