"""Prometheus metrics at /metrics: hidden without a token, and counting what the service does.

Each test reads the endpoint as Prometheus would, before and after the thing, and compares:
counters only ever grow, and other tests in the same process move them too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.db import DatabaseError, connection, connections, transaction
from django.test import AsyncClient, Client

from games.commands import lobby, play
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from testing import synthetic

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "metrics-token-for-tests"


@pytest.fixture(autouse=True)
def metrics_token(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN


def scrape() -> str:
    response = Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return response.content.decode()


def scrape_in_a_thread() -> str:
    """A scrape from a thread of an event loop's, leaving no connection open after it."""
    try:
        return scrape()
    finally:
        connections.close_all()


def value(text: str, name: str, **labels: str) -> float:
    """The sample ``name{labels}`` of a scrape; 0 when it is not there yet."""
    for line in text.splitlines():
        found = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line)
        if found is None:
            continue
        have = dict(re.findall(r'(\w+)="([^"]*)"', found.group(1) or ""))
        if all(have.get(key) == wanted for key, wanted in labels.items()):
            return float(found.group(2))
    return 0.0


def test_without_a_token_setting_the_endpoint_is_not_there(settings: Any) -> None:
    settings.METRICS_TOKEN = ""

    response = Client().get("/metrics", headers={"Authorization": "Bearer "})

    assert response.status_code == 404


@pytest.mark.parametrize("header", [None, "Bearer wrong", f"Basic {TOKEN}", "Bearer"])
def test_a_missing_or_wrong_token_is_refused(header: str | None) -> None:
    headers = {"Authorization": header} if header is not None else {}

    response = Client().get("/metrics", headers=headers)

    assert response.status_code == 401
    assert b"splendor_" not in response.content


def test_a_move_a_finished_game_and_the_requests_are_counted(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=4
    )
    before = scrape()

    game = Game.objects.get(pk=game.pk)
    play.game_take_action(
        game_id=game.pk, action={"type": "take_gems", "gems": ["white", "blue", "green"]},
        expected_version=game.version, user=alice,
    )  # fmt: skip
    play.game_resign(game_id=game.pk, user=bob)
    Client().get("/")
    after = scrape()

    moves = ("splendor_events_committed_total", {"variant": "splendor", "kind": "ActionTaken"})
    finished = ("splendor_events_committed_total", {"variant": "splendor", "kind": "GameFinished"})
    for name, labels in (moves, finished):
        assert value(after, name, **labels) == value(before, name, **labels) + 1, labels
    pushed = "splendor_push_fan_out_seconds_count"
    assert value(after, pushed) == value(before, pushed) + 2  # the move, then the resignation
    home = ("django_http_requests_total_by_view_transport_method_total", {"view": "home"})
    assert value(after, home[0], **home[1]) == value(before, home[0], **home[1]) + 1


def test_database_statements_and_cache_reads_are_counted(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=3
    )
    page = Client()
    page.force_login(alice)
    before = scrape()

    # The game's page: its reads, and the cache that keeps its player's presence writes rare.
    assert page.get(f"/games/{game.pk}/").status_code == 200
    after = scrape()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("splendor_database_query_seconds_count", alias="default", outcome="ok") > 0
    assert moved("django_cache_get_total", backend="locmem") > 0


def test_a_statement_that_fails_is_counted_as_an_error() -> None:
    before = value(scrape(), "splendor_database_query_seconds_count", outcome="error")

    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")

    after = value(scrape(), "splendor_database_query_seconds_count", outcome="error")
    assert after == before + 1


def test_a_bot_turn_is_timed_from_queued_to_committed(alice: User) -> None:
    before = scrape()

    lobby.game_create(
        variant="splendor", seats=[BotSeat("random"), UserSeat(alice)], created_by=alice, seed=5
    )  # in the quick start's mode, the bot's first move is played right after the commit

    after = scrape()
    count = ("splendor_bot_turn_seconds_count", {"queue": "in_process"})
    assert value(after, count[0], **count[1]) == value(before, count[0], **count[1]) + 1


def test_turn_mail_sent_is_counted(make_user: Callable[..., User], settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    ann = make_user("ann")  # with an address, as every user of these tests
    ben = make_user("ben")
    before = value(scrape(), "splendor_mails_total", outcome="sent")

    # Created by ben, who is looking at it: the first turn is ann's, and she is away.
    lobby.game_create(
        variant="splendor", seats=[UserSeat(ann), UserSeat(ben)], created_by=ben, seed=6
    )

    assert len(django_mail.outbox) == 1
    assert value(scrape(), "splendor_mails_total", outcome="sent") == before + 1


def test_finished_games_not_yet_counted_are_the_analytics_lag(alice: User, bob: User) -> None:
    plan = synthetic.GamePlan(
        seats=[synthetic.SeatPlan(user_id=alice.pk), synthetic.SeatPlan(user_id=bob.pk)], seed=2
    )

    synthetic.write_games([plan, plan])  # straight into the tables: no statistics task ran

    assert value(scrape(), "splendor_analytics_lag_games") == 2


def test_an_open_live_stream_is_counted_until_it_closes(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=7
    )
    at_rest = value(scrape(), "splendor_live_streams_open")

    async def while_open() -> float:
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(f"/games/{game.pk}/events")
        chunks = aiter(response.streaming_content)
        assert (await anext(chunks)).startswith(b"retry:")
        open_now = value(await sync_to_async(scrape_in_a_thread)(), "splendor_live_streams_open")
        await chunks.aclose()
        return open_now

    with ThreadPoolExecutor(max_workers=1) as pool:
        open_now = pool.submit(asyncio.run, while_open()).result(timeout=30)

    assert open_now == at_rest + 1
    assert value(scrape(), "splendor_live_streams_open") == at_rest
