"""One client cannot hold any number of live-update streams: real streams, held open on the ASGI
server (uvicorn) from real sockets, are capped per account and per address with a clear 429, are
counted across server processes through Redis, and a crashed process's streams stop counting."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import UserSeat
from games.models import Game
from games.web import live_views, stream_limits
from tests.web.tables import create_game

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["embedded", pytest.param("redis", marks=pytest.mark.redis)])
def transport(request: pytest.FixtureRequest, settings: Any) -> Iterator[str]:
    """Both ways of counting: in this process (no Redis) and through Redis."""
    if request.param == "embedded":
        settings.REDIS_URL = ""
    else:
        _forget_streams_in_redis(settings.REDIS_URL)
    yield str(request.param)
    if request.param == "redis":
        _forget_streams_in_redis(settings.REDIS_URL)


def _forget_streams_in_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{stream_limits.KEY_PREFIX}*"))
    if keys:
        client.delete(*keys)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    writer: asyncio.StreamWriter


class Streams:
    """Event streams held open on the server, each from a socket bound to a chosen address."""

    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.host, self.port = str(parsed.hostname), int(parsed.port or 80)
        # The sockets' loop runs in a thread of its own: the browser tests' Playwright keeps
        # an event loop running in the main thread, where no second one may run.
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.held: list[Answer] = []

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=30)

    def open(self, game: Game, *, address: str, session: str | None = None) -> Answer:
        answer: Answer = self._run(self._open(game, address, session))
        if answer.status == 200:
            self.held.append(answer)
        else:
            self.loop.call_soon_threadsafe(answer.writer.close)
        return answer

    def close_one(self) -> None:
        self.loop.call_soon_threadsafe(self.held.pop().writer.close)
        self._run(asyncio.sleep(0.05))

    def close_all(self) -> None:
        while self.held:
            self.close_one()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()

    async def _open(self, game: Game, address: str, session: str | None) -> Answer:
        reader, writer = await asyncio.open_connection(
            self.host, self.port, local_addr=(address, 0)
        )
        cookie = f"Cookie: sessionid={session}\r\n" if session else ""
        writer.write(
            f"GET /games/{game.pk}/events HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Accept: text/event-stream\r\n{cookie}\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        lines = head.decode().split("\r\n")
        headers = {
            name.lower(): value.strip()
            for name, _, value in (line.partition(":") for line in lines[1:] if line)
        }
        status = int(lines[0].split()[1])
        if status == 200:
            body = await asyncio.wait_for(reader.readuntil(b"\n\n"), 10)  # its "retry:" line
        else:
            body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)
        return Answer(status, headers, body, writer)


@pytest.fixture
def streams(asgi_server: str) -> Iterator[Streams]:
    held = Streams(asgi_server)
    yield held
    held.close_all()


@pytest.fixture
def public_game(make_player: Any) -> Game:
    alice, bob = make_player("alice"), make_player("bob")
    return create_game(UserSeat(alice), UserSeat(bob), creator=alice)


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def eventually(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_one_account_holds_at_most_its_cap_of_streams(
    transport: str, streams: Streams, public_game: Game, settings: Any
) -> None:
    settings.LIVE_STREAMS_PER_USER = 3
    bob = User.objects.get(username="bob")
    session = session_of(bob)

    opened = [
        streams.open(public_game, address=f"127.0.0.{n}", session=session).status for n in (2, 3, 4)
    ]
    refused = streams.open(public_game, address="127.0.0.5", session=session)

    assert opened == [200, 200, 200]
    assert refused.status == 429
    assert refused.headers["retry-after"]
    assert "at most 3" in json.loads(refused.body)["error"]
    # Someone else at the same address is not affected.
    alice = User.objects.get(username="alice")
    assert streams.open(public_game, address="127.0.0.2", session=session_of(alice)).status == 200
    # A stream that ends gives its place back.
    streams.close_one()
    streams.close_one()
    eventually(lambda: stream_limits.streams_counted(user_id=bob.pk) == 2)
    assert streams.open(public_game, address="127.0.0.5", session=session).status == 200


def test_one_address_holds_at_most_its_cap_of_streams_guests_included(
    transport: str, streams: Streams, public_game: Game, settings: Any
) -> None:
    settings.LIVE_STREAMS_PER_ADDRESS = 3

    opened = [streams.open(public_game, address="127.0.0.7").status for _ in range(3)]
    refused = streams.open(public_game, address="127.0.0.7")
    signed_in = streams.open(
        public_game, address="127.0.0.7", session=session_of(User.objects.get(username="bob"))
    )

    assert opened == [200, 200, 200]
    assert refused.status == 429
    assert "address" in json.loads(refused.body)["error"]
    assert signed_in.status == 429
    assert streams.open(public_game, address="127.0.0.8").status == 200


def test_an_open_stream_keeps_counting_past_its_first_lease(
    transport: str,
    streams: Streams,
    public_game: Game,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live_views, "KEEPALIVE_SECONDS", 0.2)
    settings.LIVE_STREAM_LEASE_SECONDS = 1.0
    settings.LIVE_STREAMS_PER_ADDRESS = 1

    assert streams.open(public_game, address="127.0.0.10").status == 200
    time.sleep(2.5)  # the stream's keep-alives renewed its lease meanwhile

    assert stream_limits.streams_counted(address="127.0.0.10") == 1
    assert streams.open(public_game, address="127.0.0.10").status == 429


HOLD_STREAMS = """
import os, sys, time
import django
django.setup()
from django.conf import settings
from django.test import RequestFactory
from django.contrib.auth.models import AnonymousUser
from games.web import live_views, stream_limits
settings.LIVE_STREAM_LEASE_SECONDS = 2
request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.9")
request.user = AnonymousUser()
for _ in range(int(sys.argv[1])):
    stream_limits.stream_lease_take(request)
print("held", flush=True)
time.sleep(600)
"""


@pytest.mark.redis
def test_streams_count_across_processes_and_a_crashed_process_stops_counting(
    streams: Streams, public_game: Game, settings: Any
) -> None:
    _forget_streams_in_redis(settings.REDIS_URL)
    settings.LIVE_STREAMS_PER_ADDRESS = 3
    other_process = subprocess.Popen(
        [sys.executable, "-c", HOLD_STREAMS, "2"],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": settings.REDIS_URL},
        stdout=subprocess.PIPE,
    )
    try:
        assert other_process.stdout is not None
        assert other_process.stdout.readline() == b"held\n"

        first = streams.open(public_game, address="127.0.0.9").status
        second = streams.open(public_game, address="127.0.0.9").status
        os.kill(other_process.pid, signal.SIGKILL)
        other_process.wait()
        time.sleep(2.5)  # the crashed process's leases (2 s) lapse
        after_the_crash = streams.open(public_game, address="127.0.0.9").status
    finally:
        if other_process.poll() is None:
            other_process.kill()
            other_process.wait()
        _forget_streams_in_redis(settings.REDIS_URL)

    assert (first, second, after_the_crash) == (200, 429, 200)
