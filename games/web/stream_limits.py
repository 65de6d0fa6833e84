"""How many live-update streams (``games.web.live_views``) one account and one address may hold
open.

Each open stream holds a lease: a slot in the account's set and one in the address's set, each
with an expiry. A stream takes its lease when it opens (refused with ``TooManyStreams`` when
either set is full), renews it as it sends (its keep-alive comes every 20 seconds), and gives
it back when it ends. The sets live in Redis when ``REDIS_URL`` is set, so every server process
counts the same streams; in this process otherwise (the embedded mode has one server process).
A process that crashes gives nothing back, but its leases lapse ``LIVE_STREAM_LEASE_SECONDS``
after their last renewal, so its streams stop counting on their own.

Guests have no account: only their address counts. The address is the connection's, as for
sign-ins (docs/decisions/0061-stream-caps.md). When Redis does not answer, a stream is let
through uncounted: the cap guards against a hoarder, it is not worth refusing every page
while Redis is away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field

import redis
from django.conf import settings
from django.http import HttpRequest

from splendor_site.redis_clients import bounded_redis

logger = logging.getLogger(__name__)

REDIS_TIMEOUT_SECONDS = 0.5
KEY_PREFIX = "splendor:streams:"


class TooManyStreams(Exception):
    """Refusal of a new stream: the account's or the address's streams are at their cap."""

    def __init__(self, holder: str, cap: int) -> None:
        self.holder = holder
        self.cap = cap
        super().__init__(
            f"Too many live-update streams open from this {holder} (at most {cap}); "
            "close some pages of games, or rely on their polling meanwhile."
        )


@dataclass
class StreamLease:
    """One open stream's slots: (set key, cap) pairs, its own id, and when it last renewed."""

    slots: tuple[tuple[str, int], ...]
    stream_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    renewed_at: float = field(default_factory=time.monotonic)
    is_counted: bool = True


def stream_lease_take(request: HttpRequest) -> StreamLease:
    """A lease for one more stream of ``request``'s account and address, or ``TooManyStreams``."""
    slots = [(f"{KEY_PREFIX}address:{request.META.get('REMOTE_ADDR', '')}", _cap("ADDRESS"))]
    if request.user.is_authenticated:
        slots.insert(0, (f"{KEY_PREFIX}user:{request.user.pk}", _cap("USER")))
    lease = StreamLease(tuple(slots))
    _store().take(lease)
    return lease


async def stream_held_by(
    lease: StreamLease, chunks: AsyncGenerator[bytes, None]
) -> AsyncIterator[bytes]:
    """``chunks`` as they come, renewing ``lease`` as they pass and giving it back at the end,
    however the stream ends (the client gone, the server closing it)."""
    loop = asyncio.get_running_loop()
    try:
        async with contextlib.aclosing(chunks):
            async for chunk in chunks:
                yield chunk
                if time.monotonic() - lease.renewed_at >= _lease_seconds() / 4:
                    lease.renewed_at = time.monotonic()
                    await loop.run_in_executor(None, _store().renew, lease)
    finally:
        # Not awaited: a stream being cancelled must not wait on Redis to finish closing.
        try:
            loop.run_in_executor(None, _store().release, lease)
        except RuntimeError:  # the loop is closing: give it back from here
            _store().release(lease)


def streams_counted(*, user_id: int | None = None, address: str | None = None) -> int:
    """The live leases of one account or one address, in every server process."""
    key = f"{KEY_PREFIX}user:{user_id}" if address is None else f"{KEY_PREFIX}address:{address}"
    return _store().count(key)


def _cap(holder: str) -> int:
    return int(getattr(settings, f"LIVE_STREAMS_PER_{holder}"))


def _lease_seconds() -> float:
    return float(settings.LIVE_STREAM_LEASE_SECONDS)


class _LocalStore:
    """The embedded mode's sets: stream id -> expiry (monotonic), per key."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sets: dict[str, dict[str, float]] = {}

    def take(self, lease: StreamLease) -> None:
        now = time.monotonic()
        with self._lock:
            for key, cap in lease.slots:
                if self._live(key, now) >= cap:
                    raise TooManyStreams(_holder(key), cap)
            for key, _ in lease.slots:
                self._sets.setdefault(key, {})[lease.stream_id] = now + _lease_seconds()

    def renew(self, lease: StreamLease) -> None:
        expiry = time.monotonic() + _lease_seconds()
        with self._lock:
            for key, _ in lease.slots:
                members = self._sets.get(key, {})
                if lease.stream_id in members:
                    members[lease.stream_id] = expiry

    def release(self, lease: StreamLease) -> None:
        with self._lock:
            for key, _ in lease.slots:
                members = self._sets.get(key, {})
                members.pop(lease.stream_id, None)
                if not members:
                    self._sets.pop(key, None)

    def count(self, key: str) -> int:
        with self._lock:
            return self._live(key, time.monotonic())

    def _live(self, key: str, now: float) -> int:
        members = self._sets.get(key, {})
        for stream_id in [item for item, expiry in members.items() if expiry <= now]:
            del members[stream_id]
        return len(members)


# KEYS: the lease's sets; ARGV: lease seconds, stream id, then each set's cap. Drops lapsed
# leases, refuses (returning the full set's position, from 1) or adds the stream to every set.
# Times are Redis's clock, so server processes on machines with skewed clocks agree.
_TAKE_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local expiry, stream = now + tonumber(ARGV[1]), ARGV[2]
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then return i end
end
for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, expiry, stream)
    redis.call('EXPIREAT', key, math.ceil(expiry))
end
return 0
"""


class _RedisStore:
    """The sets as Redis sorted sets (stream id scored by its expiry, in Redis's clock)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._client = bounded_redis(REDIS_TIMEOUT_SECONDS)
        self._take = self._client.register_script(_TAKE_SCRIPT)

    def take(self, lease: StreamLease) -> None:
        keys = [key for key, _ in lease.slots]
        args: list[str | float] = [_lease_seconds(), lease.stream_id]
        args += [cap for _, cap in lease.slots]
        try:
            full = int(self._take(keys=keys, args=args))
        except redis.RedisError:
            logger.warning("Live updates: could not count streams; letting this one through")
            lease.is_counted = False
            return
        if full:
            key, cap = lease.slots[full - 1]
            raise TooManyStreams(_holder(key), cap)

    def renew(self, lease: StreamLease) -> None:
        if not lease.is_counted:
            return
        with contextlib.suppress(redis.RedisError):
            expiry = self._now() + _lease_seconds()
            pipeline = self._client.pipeline()
            for key, _ in lease.slots:
                pipeline.zadd(key, {lease.stream_id: expiry}, xx=True)
                pipeline.expireat(key, int(expiry) + 1)
            pipeline.execute()

    def release(self, lease: StreamLease) -> None:
        if not lease.is_counted:
            return
        try:
            pipeline = self._client.pipeline()
            for key, _ in lease.slots:
                pipeline.zrem(key, lease.stream_id)
            pipeline.execute()
        except redis.RedisError:
            logger.warning("Live updates: could not release a stream; it lapses on its own")

    def count(self, key: str) -> int:
        return int(self._client.zcount(key, f"({self._now()}", "+inf"))

    def _now(self) -> float:
        """Redis's clock, as the take script uses."""
        seconds, microseconds = self._client.time()
        return seconds + microseconds / 1_000_000


def _holder(key: str) -> str:
    return "account" if key.startswith(f"{KEY_PREFIX}user:") else "address"


_local = _LocalStore()
_redis: _RedisStore | None = None


def _store() -> _LocalStore | _RedisStore:
    global _redis
    if not settings.REDIS_URL:
        return _local
    if _redis is None or _redis.url != settings.REDIS_URL:
        _redis = _RedisStore(settings.REDIS_URL)
    return _redis
