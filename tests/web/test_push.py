"""Server push: the game's event stream tells an open page each new version as it commits,
starts with the version a reconnecting page missed, and is refused where it cannot work."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import AsyncClient, Client
from django.utils import timezone

from games.commands import play
from games.commands.lobby import OpenSeat, UserSeat
from games.models import Game, Seat
from games.web import live, live_views
from notifications import presence
from tests.web.tables import create_game

pytestmark = pytest.mark.django_db(transaction=True)


def run_async(coroutine_function: Callable[[], Any]) -> Any:
    """Run on a fresh event loop in its own thread (the browser tests may hold this one's)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result(timeout=30)


def versions_pushed(
    user: User | None,
    game: Game,
    *,
    count: int,
    headers: dict[str, str] | None = None,
    query: str = "",
    meanwhile: Callable[[], Any] | None = None,
) -> list[int]:
    """The first ``count`` versions the stream sends; ``meanwhile`` runs once it is open."""

    async def listen() -> list[int]:
        client = AsyncClient()
        if user is not None:
            await client.aforce_login(user)
        response = await client.get(f"/games/{game.pk}/events{query}", headers=headers or {})
        assert response.status_code == 200, response.content
        assert response["Content-Type"] == "text/event-stream"
        chunks = aiter(response.streaming_content)
        versions: list[int] = []
        assert (await anext(chunks)).startswith(b"retry:")
        if meanwhile is not None:
            await sync_to_async(meanwhile)()
        while len(versions) < count:
            chunk = await asyncio.wait_for(anext(chunks), timeout=5)
            if chunk.startswith(b"id:"):
                versions.append(int(chunk.split(b"data: ")[1]))
        await chunks.aclose()
        return versions

    return run_async(listen)


@pytest.fixture(params=["embedded", pytest.param("redis", marks=pytest.mark.redis)])
def transport(request: pytest.FixtureRequest, settings: Any) -> str:
    """Both transports: in-process (no Redis, the quick start) and Redis pub/sub."""
    if request.param == "embedded":
        settings.REDIS_URL = ""
    return str(request.param)


def test_a_committed_move_is_pushed_to_an_open_page(
    transport: str, bob: User, two_player_game: Game
) -> None:
    start = two_player_game.version

    pushed = versions_pushed(
        bob,
        two_player_game,
        count=1,
        query=f"?version={start}",
        meanwhile=lambda: move(two_player_game),
    )

    assert pushed == [start + 1]


def test_a_reconnecting_page_first_hears_the_version_it_missed(
    transport: str, bob: User, two_player_game: Game
) -> None:
    shown = two_player_game.version
    move(two_player_game)
    move(two_player_game, ("red", "black", "white"))

    pushed = versions_pushed(bob, two_player_game, count=1, headers={"Last-Event-ID": str(shown)})

    assert pushed == [shown + 2]


def is_present(user: User, game: Game) -> bool:
    return presence.presence_of(user_id=user.pk, game_id=game.pk).is_present(timezone.now())


def test_an_open_stream_keeps_its_player_present_for_as_long_as_it_is_open(
    transport: str, settings: Any, bob: User, two_player_game: Game
) -> None:
    settings.PRESENCE_SECONDS = 0.6  # a heartbeat every 0.2 s
    game = two_player_game

    async def hold_the_page_open() -> list[bool]:
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(f"/games/{game.pk}/events?version={game.version}")
        chunks = aiter(response.streaming_content)
        await anext(chunks)  # "retry:", sent before the stream marks its player
        present: list[bool] = []
        started = time.monotonic()
        while time.monotonic() - started < 2.0:  # more than three windows
            assert await asyncio.wait_for(anext(chunks), timeout=5) == b": keepalive\n\n"
            present.append(await sync_to_async(is_present)(bob, game))
        await chunks.aclose()
        return present

    present = run_async(hold_the_page_open)

    assert len(present) >= 6
    assert all(present)
    time.sleep(0.7)  # the page closed: no heartbeat since
    assert not is_present(bob, game)


def test_a_spectator_of_a_public_game_hears_the_moves_too(
    transport: str, two_player_game: Game
) -> None:
    pushed = versions_pushed(
        None,
        two_player_game,
        count=1,
        query=f"?version={two_player_game.version}",
        meanwhile=lambda: move(two_player_game),
    )

    assert pushed == [two_player_game.version + 1]


def test_a_private_game_streams_only_to_those_who_may_see_it(
    alice: User, bob: User, alice_client: Client
) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)

    async def status_for(user: User | None) -> int:
        client = AsyncClient()
        if user is not None:
            await client.aforce_login(user)
        response = await client.get(f"/games/{game.pk}/events")
        return response.status_code

    assert run_async(lambda: status_for(bob)) == 404
    assert run_async(lambda: status_for(None)) == 404
    assert run_async(lambda: status_for(alice)) == 200


def test_under_wsgi_the_stream_is_refused_so_the_page_polls(
    bob_client: Client, two_player_game: Game
) -> None:
    response = bob_client.get(f"/games/{two_player_game.pk}/events")

    assert response.status_code == 503
    assert response["Retry-After"]


def test_a_page_never_hears_an_older_version_than_it_was_told(settings: Any) -> None:
    settings.REDIS_URL = ""

    async def run() -> list[int]:
        subscriber = await live.hub.subscribe(999_999, 5)
        heard: list[int] = []
        try:
            for version in (7, 6, 7, 8):
                live.hub.deliver(999_999, version)
                await asyncio.sleep(0)
                await asyncio.sleep(0)
                if subscriber.wake.is_set():
                    heard.append(subscriber.latest)
                    subscriber.wake.clear()
        finally:
            live.hub.unsubscribe(subscriber)
        return heard

    assert run_async(run) == [7, 8]
    # This game's stream is gone. (The hub is the process's: a live-server test run before in
    # the same worker may still be closing streams of its own games.)
    assert live.hub.open_streams_of(999_999) == 0


def test_news_from_redis_reaches_the_games_streams_and_nothing_passes_for_a_version(
    settings: Any,
) -> None:
    """A message on the game's channel is a version (``7``) or news (``analysis:running 5/40``);
    news cannot pose as the stream's own events nor carry a line break into the stream."""
    settings.REDIS_URL = ""
    prefix = live.channel_prefix()

    async def run() -> tuple[int, dict[str, str]]:
        subscriber = await live.hub.subscribe(999_998, 0)
        try:
            for data in (b"999998:7", b"999998:analysis:running 5/40", b"999998:version:8",
                         b"999998:listening:push", b"999998:analysis:done\nevent: version",
                         b"999998:Analysis:done"):  # fmt: skip
                live.hub._deliver_message(prefix, {"data": data})
            await asyncio.sleep(0.05)
            return subscriber.latest, dict(subscriber.news)
        finally:
            live.hub.unsubscribe(subscriber)

    assert run_async(run) == (7, {"analysis": "running 5/40"})


def test_with_redis_unreachable_the_stream_ends_and_the_page_polls(
    bob: User, two_player_game: Game, settings: Any
) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"

    async def listen() -> list[bytes]:
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(f"/games/{two_player_game.pk}/events")
        return [chunk async for chunk in response.streaming_content]

    # The page is told to come back in a while; until then it polls /version.
    assert run_async(listen) == [f"retry: {live_views.UNAVAILABLE_RETRY_MS}\n\n".encode()]


@pytest.mark.redis
def test_publishing_to_a_hung_redis_gives_up_quickly(settings: Any) -> None:
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts connections and never answers
    settings.REDIS_URL = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    try:
        began = time.monotonic()
        live.publish(1, 2)
        assert time.monotonic() - began < 1.5
    finally:
        listener.close()


def move(game: Game, gems: tuple[str, ...] = ("white", "blue", "green")) -> None:
    """A move by the player to act, through the service, after-commit hooks and all."""
    game = Game.objects.get(pk=game.pk)
    seat = Seat.objects.select_related("user").get(game=game, index=game.acting_seat)
    play.game_take_action(
        game_id=game.pk,
        action={"type": "take_gems", "gems": list(gems)},
        expected_version=game.version,
        user=seat.user,
    )
