"""Redis clients whose every call is bounded: a request never waits on a Redis that is down or
hangs longer than the timeout its caller chose.

Presence, live-update publishing, stream limits and beat's heartbeat each ask Redis something on
a player's path or a health check's, and each would rather go without an answer than wait. One
client per (address, timeout) is kept per process: redis-py's clients are safe to share between
threads, and their pool keeps the connections.
"""

from __future__ import annotations

import threading

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

_clients: dict[tuple[str, float], redis.Redis] = {}
_lock = threading.Lock()


def bounded_redis(timeout_seconds: float) -> redis.Redis:
    """The process's client of ``settings.REDIS_URL`` whose connects and reads give up after
    ``timeout_seconds``, and which tries each command once: redis-py's default retries would
    multiply the bound."""
    key = (settings.REDIS_URL, timeout_seconds)
    client = _clients.get(key)
    if client is None:
        with _lock:
            client = _clients.setdefault(
                key,
                redis.Redis.from_url(
                    settings.REDIS_URL,
                    socket_connect_timeout=timeout_seconds,
                    socket_timeout=timeout_seconds,
                    retry=Retry(NoBackoff(), 0),
                ),
            )
    return client
