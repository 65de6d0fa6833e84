"""Live updates: every open page of a game learns each new version by server push.

A page holds one Server-Sent Events stream per game (``games.web.live_views``). What travels is
only the game's version number: a page then fetches its own regions, since what a viewer sees
(their hand, their legal moves) differs from seat to seat and must go through the selectors.
News of the game beside its versions (``games.commands.game_news``: an analysis's progress)
travels the same way, as a name and a short text, and the page that shows it fetches it again.

Two transports, chosen by ``REDIS_URL`` like Celery's:

- embedded (no Redis): the commit and the open streams live in the same server process, so
  ``publish`` hands the version straight to this process's ``hub``;
- Redis: ``publish`` sends ``<game id>:<version>`` on a pub/sub channel (``publish_news``
  ``<game id>:<kind>:<text>`` on the same one), and each server process keeps ONE subscription
  (a pattern over every game) that feeds its hub. A thousand open pages cost one Redis
  connection per process, not a thousand. A process that announces without serving pages (the
  analysis worker) only publishes.

Publishing never fails a move: it runs after commit, gives up quickly and logs. A page that
misses a push catches up when it reconnects (the stream starts with the current version) or
from its fallback poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlparse

import redis
import redis.asyncio as aioredis
from django.conf import settings

from games.commands import game_news
from operations import metrics
from splendor_site.redis_clients import bounded_redis

logger = logging.getLogger(__name__)

PUBLISH_TIMEOUT_SECONDS = 0.5
"""How long a commit may wait on Redis to publish a version (connect, then send)."""
RESUBSCRIBE_DELAY_SECONDS = 1.0
LISTENER_START_SECONDS = 2.0
"""How long streams opened while the Redis subscription is first coming up wait for it."""


def channel_prefix() -> str:
    """Pub/sub channels ignore Redis database numbers, so the number goes into the name:
    two sites sharing one Redis on different databases do not hear each other."""
    database = urlparse(settings.REDIS_URL).path.strip("/") or "0"
    return f"splendor:{database}:game:"


@dataclass(frozen=True)
class News:
    """News of a game beside its versions (``games.commands.game_news``): its kind, its text."""

    kind: str
    data: str


@dataclass(eq=False)
class Subscriber:
    """One open stream: the newest version it has been told of, the news not yet sent (the
    newest of each kind), and a wake-up for its loop."""

    game_id: int
    loop: asyncio.AbstractEventLoop
    latest: int = 0
    closed: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    news: dict[str, str] = field(default_factory=dict)

    def offer(self, version: int) -> None:
        """Runs on the subscriber's loop. Older or repeated versions are dropped here."""
        if version > self.latest:
            self.latest = version
            self.wake.set()

    def offer_news(self, news: News) -> None:
        """Runs on the subscriber's loop. News not yet sent gives way to newer of its kind."""
        self.news[news.kind] = news.data
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    async def updates(self, since: int, keepalive: float) -> AsyncIterator[int | News | None]:
        """Each version newer than ``since`` and each piece of news as they come (bursts collapse
        to the newest version, and to the newest news of each kind); None every ``keepalive``
        seconds of silence. Ends when the hub closes the subscriber."""
        sent = since
        while not self.closed:
            if self.latest > sent:
                sent = self.latest
                yield sent
                continue
            if self.news:
                kind = next(iter(self.news))
                yield News(kind, self.news.pop(kind))
                continue
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=keepalive)
            except TimeoutError:
                yield None
                continue
            self.wake.clear()


class Hub:
    """This process's open streams, by game. Thread-safe: commits happen in worker threads,
    streams live on the server's event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[int, set[Subscriber]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listener_loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Event | None = None
        self._starting_until = 0.0
        self.is_listening = False

    async def subscribe(self, game_id: int, version: int) -> Subscriber:
        """A subscriber on the running loop, once this process hears every published version
        (with Redis, its subscription is up; waits at most a couple of seconds for that)."""
        loop = asyncio.get_running_loop()
        subscriber = Subscriber(game_id, loop, latest=version)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(subscriber)
        if settings.REDIS_URL:
            ready, starting_until = self._ensure_listener(loop)
            # Every stream opened while the subscription is first coming up waits for it, not
            # only the one that started it: after a restart, pages reconnect all at once.
            wait = starting_until - loop.time()
            if wait > 0 and not ready.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ready.wait(), timeout=wait)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            group = self._subscribers.get(subscriber.game_id)
            if group is not None:
                group.discard(subscriber)
                if not group:
                    del self._subscribers[subscriber.game_id]

    def deliver(self, game_id: int, version: int) -> None:
        """Tell every stream of ``game_id`` about ``version``; callable from any thread."""
        with self._lock:
            subscribers = list(self._subscribers.get(game_id, ()))
        for subscriber in subscribers:
            with contextlib.suppress(RuntimeError):  # that stream's loop has closed
                subscriber.loop.call_soon_threadsafe(subscriber.offer, version)

    def deliver_news(self, game_id: int, news: News) -> None:
        """Tell every stream of ``game_id`` the ``news``; callable from any thread."""
        with self._lock:
            subscribers = list(self._subscribers.get(game_id, ()))
        for subscriber in subscribers:
            with contextlib.suppress(RuntimeError):
                subscriber.loop.call_soon_threadsafe(subscriber.offer_news, news)

    def close_all(self) -> None:
        """End every stream, so pages reconnect (and poll until push works again)."""
        with self._lock:
            subscribers = [item for group in self._subscribers.values() for item in group]
        for subscriber in subscribers:
            with contextlib.suppress(RuntimeError):
                subscriber.loop.call_soon_threadsafe(subscriber.close)

    @property
    def open_streams(self) -> int:
        with self._lock:
            return sum(len(group) for group in self._subscribers.values())

    def open_streams_of(self, game_id: int) -> int:
        """The streams open for one game (its pages watching it, in this process)."""
        with self._lock:
            return len(self._subscribers.get(game_id, ()))

    @property
    def is_available(self) -> bool:
        """Whether streams are told of moves: always embedded; with Redis, while this
        process's subscription is up."""
        return not settings.REDIS_URL or self.is_listening

    def _ensure_listener(self, loop: asyncio.AbstractEventLoop) -> tuple[asyncio.Event, float]:
        """The subscription's "ready" flag on ``loop``, and until when (loop time) it counts as
        coming up: a stream opened before then waits for it."""
        with self._lock:
            alive = self._listener is not None and not self._listener.done()
            if alive and self._listener_loop is loop and self._ready is not None:
                return self._ready, self._starting_until
            self._listener_loop = loop
            self._ready = asyncio.Event()
            self.is_listening = False
            self._starting_until = loop.time() + LISTENER_START_SECONDS
            self._listener = loop.create_task(self._listen(settings.REDIS_URL, self._ready))
            return self._ready, self._starting_until

    async def _listen(self, url: str, ready: asyncio.Event) -> None:
        """One pattern subscription for every game; resubscribes after Redis comes back."""
        prefix = channel_prefix()
        while True:
            client = aioredis.Redis.from_url(
                url, socket_connect_timeout=2, health_check_interval=30
            )
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.psubscribe(prefix + "*")
                    self.is_listening = True
                    ready.set()
                    async for message in pubsub.listen():
                        self._deliver_message(prefix, message)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("Live updates: lost the Redis subscription; retrying", exc_info=True)
            finally:
                was_listening, self.is_listening = self.is_listening, False
                ready.clear()
                if was_listening:
                    self.close_all()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(RESUBSCRIBE_DELAY_SECONDS)

    def _deliver_message(self, prefix: str, message: dict[str, object]) -> None:
        data = message.get("data")
        if not isinstance(data, bytes):
            return
        game_id, _, rest = data.decode(errors="replace").partition(":")
        if not game_id.isdigit():
            return
        if rest.isdigit():
            self.deliver(int(game_id), int(rest))
            return
        kind, _, text = rest.partition(":")
        if game_news.is_news(kind, text):
            self.deliver_news(int(game_id), News(kind, text))


hub = Hub()


def publish(game_id: int, version: int) -> None:
    """After a commit: tell every page of the game, in every server process, its new version.

    Run after every commit that appended events (registered from ``games.apps`` with
    ``games.commands.after_commit.register_after_commit``). Bounded: a Redis that is down or hung
    costs a move at most about ``PUBLISH_TIMEOUT_SECONDS``, and the pages catch up by their
    fallback poll.
    """
    with metrics.PUSH_FAN_OUT_SECONDS.time():
        if not settings.REDIS_URL:
            hub.deliver(game_id, version)
            return
        try:
            _redis_publisher().publish(f"{channel_prefix()}{game_id}", f"{game_id}:{version}")
        except redis.RedisError:
            logger.warning("Live updates: could not publish game %s version %s", game_id, version)


def publish_news(*, game_id: int, kind: str, data: str, **_signal: object) -> None:
    """Tell every page of the game, in every server process, a piece of news: the receiver of
    ``games.commands.game_news.game_news`` (connected in ``games.apps``). Bounded and never
    failing, as ``publish`` is; the announcer has already checked the kind and the text."""
    with metrics.PUSH_FAN_OUT_SECONDS.time():
        if not settings.REDIS_URL:
            hub.deliver_news(game_id, News(kind, data))
            return
        try:
            _redis_publisher().publish(f"{channel_prefix()}{game_id}", f"{game_id}:{kind}:{data}")
        except redis.RedisError:
            logger.warning("Live updates: could not publish game %s news %s", game_id, kind)


def _redis_publisher() -> redis.Redis:
    return bounded_redis(PUBLISH_TIMEOUT_SECONDS)
