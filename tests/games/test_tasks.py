"""Bot turns as tasks: idempotent by version, queued after commit, swept when stuck, and played
in-process, one after another, in embedded mode (no broker)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from kombu.exceptions import OperationalError

from games import tasks, variants
from games.commands import after_commit, lobby, play, task_queue
from games.commands.lobby import BotSeat, UserSeat
from games.errors import IllegalMove
from games.models import Game, GameEvent
from games.vocabulary import Status
from tests.games.helpers import act, assert_consistent, footprint, reload

TAKE_THREE = {"type": "take_gems", "gems": ["white", "blue", "green"]}
HUMAN, BOT = 0, 1

WITH_PLAYERS, BOTS_ONLY = "bots_with_players", "bots_only"

Sent = list[tuple[str, tuple[Any, ...], str | None]]


@pytest.fixture
def bot_game(alice: User) -> Game:
    """Alice (seat 0) against the greedy bot; alice has just moved, so the game waits for the
    bot. No after-commit hook runs in these tests, so the bot waits until a test plays it."""
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), BotSeat("greedy")],
                             created_by=alice, seed=11)  # fmt: skip
    act(game, TAKE_THREE)
    game = reload(game)
    assert game.acting_seat == BOT
    return game


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    """What the tasks module queues, instead of running or sending it."""
    queued: Sent = []
    monkeypatch.setattr(
        tasks, "enqueue", lambda task, *args, queue=None: queued.append((task.name, args, queue))
    )
    return queued


def bot_actions(game: Game) -> int:
    return GameEvent.objects.filter(game=game, kind="ActionTaken", seat=BOT).count()


# play_bot_turn ----------------------------------------------------------------------------------


def test_a_bot_turn_plays_one_action_for_the_bot_the_game_waits_for(bot_game: Game) -> None:
    assert tasks.play_bot_turn(bot_game.pk, bot_game.version) == "played"

    assert bot_actions(bot_game) == 1
    assert reload(bot_game).acting_seat == HUMAN
    assert_consistent(bot_game)


def test_a_bot_turn_delivered_twice_plays_once(bot_game: Game) -> None:
    first = tasks.play_bot_turn(bot_game.pk, bot_game.version)
    second = tasks.play_bot_turn(bot_game.pk, bot_game.version)

    assert (first, second) == ("played", "stale")
    assert bot_actions(bot_game) == 1


def test_a_bot_turn_at_an_old_version_changes_nothing(bot_game: Game) -> None:
    before = footprint(bot_game)

    assert tasks.play_bot_turn(bot_game.pk, bot_game.version - 1) == "stale"
    assert tasks.play_bot_turn(bot_game.pk + 1000, 1) == "stale"
    assert footprint(bot_game) == before


def test_a_bot_turn_when_a_human_is_to_act_changes_nothing(started_game: Game) -> None:
    before = footprint(started_game)

    assert tasks.play_bot_turn(started_game.pk, started_game.version) == "no bot to play"
    assert footprint(started_game) == before


def test_a_game_aborted_while_the_bot_thinks_makes_the_turn_stale(
    bot_game: Game, staff: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    choose = variants.choose_bot_action

    def abort_then_choose(*args: Any, **kwargs: Any) -> Any:
        lobby.game_abort(game_id=bot_game.pk, by_user=staff, reason="server maintenance")
        return choose(*args, **kwargs)

    monkeypatch.setattr(variants, "choose_bot_action", abort_then_choose)

    assert tasks.play_bot_turn(bot_game.pk, bot_game.version) == "stale"
    assert bot_actions(bot_game) == 0


def test_a_bot_whose_move_is_refused_fails_loudly(
    bot_game: Game, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(**kwargs: Any) -> Any:
        raise IllegalMove("You cannot afford that card.")

    monkeypatch.setattr(play, "game_take_action", refuse)

    with pytest.raises(IllegalMove):
        tasks.play_bot_turn(bot_game.pk, bot_game.version)
    assert f"bot in seat {BOT} of game {bot_game.pk} failed" in caplog.text


# queue_bot_turn and the sweeper ----------------------------------------------------------------


def test_a_commit_that_leaves_the_game_waiting_for_a_bot_queues_its_turn(
    bot_game: Game, sent: Sent
) -> None:
    tasks.queue_bot_turn(bot_game.pk, bot_game.version)

    assert sent == [("games.tasks.play_bot_turn", (bot_game.pk, bot_game.version), WITH_PLAYERS)]


def test_a_bot_turn_in_a_game_between_bots_only_goes_to_their_own_queue(
    alice: User, sent: Sent
) -> None:
    game = lobby.game_create(variant="splendor", seats=[BotSeat("search")] * 3,
                             created_by=alice, seed=3)  # fmt: skip

    tasks.queue_bot_turn(game.pk, game.version)

    assert sent == [("games.tasks.play_bot_turn", (game.pk, game.version), BOTS_ONLY)]


def test_no_turn_is_queued_for_a_human_or_for_an_old_version(
    bot_game: Game, started_game: Game, sent: Sent
) -> None:
    tasks.queue_bot_turn(started_game.pk, started_game.version)
    tasks.queue_bot_turn(bot_game.pk, bot_game.version - 1)

    assert sent == []


def test_a_broker_that_is_down_leaves_the_turn_to_the_sweeper(
    bot_game: Game,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def broker_down(*args: Any, **options: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.play_bot_turn, "apply_async", broker_down)

    with caplog.at_level(logging.WARNING, logger="games.tasks"):
        tasks.queue_bot_turn(bot_game.pk, bot_game.version)

    assert "left to the sweeper" in caplog.text


def test_with_a_broker_a_turn_is_sent_not_played(
    bot_game: Game, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    delivered: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        tasks.play_bot_turn,
        "apply_async",
        lambda args, **options: delivered.append((tuple(args), options.get("queue"))),
    )

    tasks.queue_bot_turn(bot_game.pk, bot_game.version)

    assert delivered == [((bot_game.pk, bot_game.version), WITH_PLAYERS)]
    assert bot_actions(bot_game) == 0


def test_the_sweeper_queues_bot_turns_that_waited_too_long(
    bot_game: Game, started_game: Game, settings: Any, sent: Sent
) -> None:
    settings.BOT_TURN_STUCK_AFTER_SECONDS = 0

    assert tasks.sweep_stuck_bot_turns() == 1
    assert sent == [("games.tasks.play_bot_turn", (bot_game.pk, bot_game.version), WITH_PLAYERS)]


def test_the_sweeper_sends_a_stuck_turn_between_bots_only_to_their_own_queue(
    alice: User, settings: Any, sent: Sent
) -> None:
    settings.BOT_TURN_STUCK_AFTER_SECONDS = 0
    game = lobby.game_create(variant="splendor", seats=[BotSeat("greedy")] * 2,
                             created_by=alice, seed=4)  # fmt: skip

    assert tasks.sweep_stuck_bot_turns() == 1
    assert sent == [("games.tasks.play_bot_turn", (game.pk, game.version), BOTS_ONLY)]


def test_the_sweeper_leaves_a_bot_turn_that_has_just_begun(
    bot_game: Game, settings: Any, sent: Sent
) -> None:
    settings.BOT_TURN_STUCK_AFTER_SECONDS = 60

    assert tasks.sweep_stuck_bot_turns() == 0
    assert sent == []


def test_the_sweeper_leaves_finished_and_aborted_games(
    bot_game: Game, staff: User, settings: Any, sent: Sent
) -> None:
    settings.BOT_TURN_STUCK_AFTER_SECONDS = 0
    lobby.game_abort(game_id=bot_game.pk, by_user=staff)

    assert tasks.sweep_stuck_bot_turns() == 0


# enqueue in embedded mode ----------------------------------------------------------------------


class RecordingTask:
    """Stands in for a Celery task: runs ``body`` and notes when it starts and ends."""

    def __init__(self, name: str, log: list[str], body: Callable[[], None] = lambda: None):
        self.name, self.log, self.body = name, log, body

    def __call__(self, *args: Any) -> None:
        self.log.append(f"{self.name} starts")
        self.body()
        self.log.append(f"{self.name} ends")


def test_tasks_queued_by_a_running_task_run_after_it_not_inside_it(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    log: list[str] = []
    second = RecordingTask("second", log)
    third = RecordingTask("third", log)

    def queue_two_more() -> None:
        task_queue.enqueue(second)  # type: ignore[arg-type]
        task_queue.enqueue(third)  # type: ignore[arg-type]

    task_queue.enqueue(RecordingTask("first", log, queue_two_more))  # type: ignore[arg-type]

    assert log == ["first starts", "first ends", "second starts", "second ends",
                   "third starts", "third ends"]  # fmt: skip


def test_a_failing_task_does_not_stop_the_queued_ones_and_is_raised_after(
    settings: Any,
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    log: list[str] = []
    after = RecordingTask("after", log)

    def queue_then_fail() -> None:
        task_queue.enqueue(after)  # type: ignore[arg-type]
        raise RuntimeError("bot crashed")

    with pytest.raises(RuntimeError, match="bot crashed"):
        task_queue.enqueue(RecordingTask("failing", log, queue_then_fail))  # type: ignore[arg-type]
    assert log == ["failing starts", "after starts", "after ends"]

    task_queue.enqueue(after)  # type: ignore[arg-type]
    assert log[-2:] == ["after starts", "after ends"]


# Embedded play, end to end ---------------------------------------------------------------------


@pytest.fixture
def bots_play_after_commit(after_commit_hooks: list[after_commit.Hook], settings: Any) -> None:
    """The project's own hook as ``games.apps`` registers it, in-process as with no REDIS_URL
    (CI sets one)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    after_commit.register_after_commit(
        lambda committed: tasks.enqueue_bot_turn(
            committed.game_id, committed.version, with_player=committed.has_a_player
        ),
        when=after_commit.bot_moves_next,
    )


@pytest.mark.django_db(transaction=True)
def test_embedded_the_bot_replies_before_the_human_move_returns(
    alice: User, bots_play_after_commit: None
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), BotSeat("greedy")],
                             created_by=alice, seed=11)  # fmt: skip

    act(game, TAKE_THREE)

    assert reload(game).acting_seat == HUMAN
    assert bot_actions(game) == 1


@pytest.mark.django_db(transaction=True)
def test_embedded_play_bots_plays_whole_games_that_replay_cleanly(
    bots_play_after_commit: None,
) -> None:
    out = StringIO()

    call_command("play_bots", "--games", "2", "--bots", "greedy", "random", stdout=out)

    assert "2/2 finished" in out.getvalue()
    assert Game.objects.filter(status=Status.FINISHED).count() == 2
    verified = StringIO()
    call_command("verify_games", stdout=verified)
    assert "2 game(s) replayed, 0 with differences" in verified.getvalue()


@pytest.mark.parametrize("levels", [["greedy"], ["random"] * 5])
def test_play_bots_needs_two_to_four_seats(levels: list[str], db: None) -> None:
    with pytest.raises(CommandError, match="2 to 4"):
        call_command("play_bots", "--bots", *levels)
