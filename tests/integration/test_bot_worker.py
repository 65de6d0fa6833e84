"""Bots played by a real Celery worker through Redis, on PostgreSQL: the production path.

Each test starts its own worker process (``conftest.start_worker``) on the test database and a Redis
database of its own. Humans play through ``games.commands.play`` in this process, exactly as a
request would; their after-commit hook publishes the bot's turn to the worker.
"""

from __future__ import annotations

import logging
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command

from games.commands import after_commit, lobby, play
from games.commands.integrity import read_model_differences
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game, GameEvent
from games.reads import game_view
from games.tasks import play_bot_turn, sweep_stuck_bot_turns
from games.vocabulary import Status
from splendor_site.celery import app as celery_app
from tests.integration.conftest import StartWorker, point_app_at_broker

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

HUMAN, BOT = 0, 1
# Refused connections give up after the publish retry policy (about 0.2 s); with a server that
# accepts and never answers, the request stops waiting after BROKER_PUBLISH_WAIT_SECONDS (0.4 s)
# while the send times out in the background. The bound leaves room for a loaded machine.
PUBLISH_GIVES_UP_WITHIN = {"refuses connections": 1.0, "never answers": 1.0}


def wait_until(condition: Callable[[], bool], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def actions_after(game: Game, version: int, *, seat: int) -> int:
    return GameEvent.objects.filter(
        game=game, seq__gt=version, kind="ActionTaken", seat=seat
    ).count()


def make_player(username: str) -> AbstractBaseUser:
    return get_user_model().objects.create_user(username=username, password=None)


def human_against(level: str) -> tuple[Game, AbstractBaseUser]:
    """A new game in which a human (seat 0, who moves first) plays the bot of ``level``."""
    human = make_player("human")
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(human), BotSeat(level)], created_by=human, seed=7
    )
    assert game.acting_seat == HUMAN
    return game, human


def play_human_until_bot_turn(game: Game, human: AbstractBaseUser) -> int:
    """Random legal moves for the human (returning tokens, choosing a noble...) until the game
    waits for the bot; returns the version the bot is to play at."""
    rng = random.Random(game.pk)
    game = reload(game)
    while game.acting_seat == HUMAN:
        legal = game_view.game_legal_actions_for_viewer(game, human)
        play.game_take_action(game_id=game.pk, action=rng.choice(legal),
                              expected_version=game.version, user=human)  # fmt: skip
        game = reload(game)
    assert game.status == Status.ACTIVE
    return game.version


@pytest.fixture
def bot_turns_not_queued(monkeypatch: pytest.MonkeyPatch) -> None:
    """The services' after-commit hooks stay silent: the test sends bot turns itself."""
    monkeypatch.setattr(after_commit, "_hooks", [])


def test_a_bot_game_plays_to_the_end_through_the_worker(start_worker: StartWorker) -> None:
    start_worker()

    game = lobby.game_create(variant="splendor", seats=[BotSeat("greedy"), BotSeat("random")],
                             created_by=None)  # fmt: skip

    wait_until(lambda: reload(game).status == Status.FINISHED, timeout=60,
               what="the bots finish their game")  # fmt: skip
    seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert read_model_differences(reload(game)) == []


def test_the_same_bot_turn_sent_twice_appends_one_move(
    start_worker: StartWorker, bot_turns_not_queued: None
) -> None:
    worker = start_worker()
    game, human = human_against("greedy")
    version = play_human_until_bot_turn(game, human)

    first = play_bot_turn.delay(game.pk, version)
    second = play_bot_turn.delay(game.pk, version)

    worker.wait_for_log(rf"play_bot_turn\[{first.id}\] succeeded in \S+: 'played'")
    worker.wait_for_log(rf"play_bot_turn\[{second.id}\] succeeded in \S+: 'stale'")
    assert actions_after(game, version, seat=BOT) == 1
    assert reload(game).acting_seat == HUMAN
    assert read_model_differences(reload(game)) == []


def test_a_worker_killed_while_the_bot_thinks_leaves_no_event_and_the_sweeper_recovers(
    start_worker: StartWorker,
) -> None:
    thinker = start_worker(BOT_SEARCH_SECONDS="3")
    game, human = human_against("search")
    version = play_human_until_bot_turn(game, human)
    thinker.wait_for_log(r"play_bot_turn\[\S+\] received")
    time.sleep(1)  # well inside the three seconds of thinking

    thinker.kill()

    assert "succeeded" not in thinker.log()
    assert reload(game).version == version
    assert not GameEvent.objects.filter(game=game, seq__gt=version).exists()

    start_worker(BOT_SEARCH_SECONDS="0.1", BOT_TURN_STUCK_AFTER_SECONDS="0")
    sweep_stuck_bot_turns.delay()

    wait_until(lambda: reload(game).version > version, timeout=30,
               what="the bot plays its turn once the sweeper queued it again")  # fmt: skip
    assert actions_after(game, version, seat=BOT) == 1
    assert read_model_differences(reload(game)) == []


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A local port that accepts connections and never answers, like a hung Redis."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept_and_ignore() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept_and_ignore, daemon=True)
    thread.start()
    yield int(server.getsockname()[1])
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    server.close()


@pytest.mark.parametrize("broker", sorted(PUBLISH_GIVES_UP_WITHIN))
def test_a_human_move_stands_while_redis_is_down_and_the_bot_plays_once_it_is_back(
    broker: str,
    start_worker: StartWorker,
    celery_broker: str,
    request: pytest.FixtureRequest,
    caplog: pytest.LogCaptureFixture,
) -> None:
    port_fixture = "closed_port" if broker == "refuses connections" else "silent_port"
    port = request.getfixturevalue(port_fixture)
    game, human = human_against("greedy")
    point_app_at_broker(celery_app, f"redis://127.0.0.1:{port}/0")
    legal = game_view.game_legal_actions_for_viewer(game, human)

    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.tasks"):
        result = play.game_take_action(game_id=game.pk, action=legal[0],
                                       expected_version=game.version, user=human)  # fmt: skip
    took = time.monotonic() - started

    assert took < PUBLISH_GIVES_UP_WITHIN[broker], f"the move took {took:.2f} s"
    assert "left to the sweeper" in caplog.text
    stored = reload(game)
    assert stored.version == result.version
    assert actions_after(game, game.version, seat=HUMAN) == 1
    assert stored.acting_seat == BOT

    point_app_at_broker(celery_app, celery_broker)
    start_worker(BOT_TURN_STUCK_AFTER_SECONDS="0")
    sweep_stuck_bot_turns.delay()

    wait_until(lambda: reload(game).version > stored.version, timeout=30,
               what="the bot plays once the sweeper queued its turn")  # fmt: skip
    assert actions_after(game, stored.version, seat=BOT) == 1


def test_play_bots_with_a_broker_waits_for_the_worker_to_finish(start_worker: StartWorker) -> None:
    start_worker()
    out = StringIO()

    call_command("play_bots", "--games", "2", "--bots", "greedy", "random", "--wait", "60",
                 stdout=out)  # fmt: skip

    assert "2/2 finished" in out.getvalue()
