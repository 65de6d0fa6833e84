"""Beat's heartbeat: a time in Redis that beat's periodic task renews, so that the health check
can tell whether beat still runs (and a worker of the default queue runs what it sends).

Only with ``REDIS_URL``: without a broker there is no beat, tasks run in-process.
"""

from __future__ import annotations

import time

import redis.asyncio as aioredis
from django.conf import settings

from splendor_site.redis_clients import bounded_redis

HEARTBEAT_KEY = "splendor:beat:heartbeat"
KEPT_SECONDS = 24 * 3600
"""A heartbeat older than this is forgotten: the check then says beat never ran (recently)."""


def beat_heartbeat_record(*, at: float | None = None) -> int:
    """Note that beat's periodic task ran ``at`` (epoch seconds; default now). Nothing without
    Redis: the quick start's server runs beat's schedule itself, and no health check asks.
    Returns how many heartbeats were recorded (1 or 0), as the other periodic jobs count."""
    if not settings.REDIS_URL:
        return 0
    bounded_redis(2.0).set(HEARTBEAT_KEY, repr(time.time() if at is None else at), ex=KEPT_SECONDS)
    return 1


async def beat_heartbeat_age() -> float | None:
    """Seconds since beat's last heartbeat, or None if there is none."""
    client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    async with client:
        raw = await client.get(HEARTBEAT_KEY)
    return None if raw is None else max(0.0, time.time() - float(raw))
