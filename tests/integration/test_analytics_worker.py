"""Analytics counted by a real Celery worker through Redis, on PostgreSQL.

A game that finishes through the services queues its count after commit, on the ``analytics``
queue; the worker started as the README starts it (no ``-Q``) consumes that queue too. A count
delivered twice adds nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model

from analytics import selectors
from analytics.filters import StatsFilter
from analytics.models import CountedGame, SeatFacts
from analytics.tasks import count_finished_game
from games.commands import lobby, play
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from games.vocabulary import Status
from splendor_site.celery import app as celery_app
from tests.integration.conftest import StartWorker

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def wait_until(condition: Callable[[], bool], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def test_analytics_tasks_go_to_their_own_queue() -> None:
    route = celery_app.amqp.router.route({}, "analytics.tasks.count_finished_game")
    assert route["queue"].name == "analytics"
    bot_route = celery_app.amqp.router.route({}, "games.tasks.play_bot_turn")
    assert bot_route["queue"].name != "analytics"


def test_a_finished_game_is_counted_once_by_the_worker(start_worker: StartWorker) -> None:
    worker = start_worker()
    ann = get_user_model().objects.create_user(username="ann", password=None)
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(ann), BotSeat("random")], created_by=ann, seed=3
    )
    play.game_resign(game_id=game.pk, user=ann)
    assert Game.objects.get(pk=game.pk).status == Status.FINISHED

    wait_until(lambda: CountedGame.objects.filter(game=game).count() == 2, timeout=30,
               what="the worker counts the finished game")  # fmt: skip
    worker.wait_for_log(r"count_finished_game\[\S+\] succeeded in \S+: 'counted'")
    stats = selectors.statistics(StatsFilter())
    assert stats["games"] == 1
    assert [row["ended_by"] for row in stats["endings"]] == ["resignation"]

    again = count_finished_game.delay(game.pk)
    worker.wait_for_log(rf"count_finished_game\[{again.id}\] succeeded in \S+: 'already counted'")
    assert selectors.statistics(StatsFilter())["games"] == 1
    assert SeatFacts.objects.filter(game_id=game.pk).count() == 2
