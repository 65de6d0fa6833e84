"""Celery tasks: doors, not rooms. Each takes ids and a version, loads, calls a service.

A task delivered twice, or late, changes nothing: the service refuses a stale expected version,
so ``acks_late`` (redelivery after a worker dies) is safe. Whatever is lost on the way — a
message the broker never got, a worker killed mid-turn — ``sweep_stuck_bot_turns`` queues again.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from games import engine, variants
from games.commands import play
from games.commands.task_queue import enqueue
from games.errors import GameError, StaleVersion
from games.models import Game, GameEvent, Seat
from games.reads import game_view
from games.vocabulary import Status
from operations import metrics

logger = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    # No reject_on_worker_lost: a turn whose worker died is picked up by the sweeper, while
    # redelivering it at once could loop forever on a turn that kills its worker every time
    # (out of memory in the search, say).
    # Well below the broker's visibility timeout, so a stuck turn is killed, not redelivered
    # while it still runs.
    soft_time_limit=settings.BOT_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.BOT_TASK_TIME_LIMIT,
)
def play_bot_turn(game_id: int, expected_version: int) -> str:
    """Let the bot the game waits for choose and play one action at ``expected_version``.

    Returns what happened: "played", "stale" (the game is no longer at that version, so another
    delivery or a human got there first) or "no bot to play".
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version:
        return "stale"
    turn = game_view.game_bot_turn(game)
    if turn is None:
        return "no bot to play"
    seat, level, view = turn
    action = variants.choose_bot_action(
        level,
        view,
        # The same game and version always give the same choice: replays and retries agree.
        seed=game_id * 1_000_003 + expected_version,
        budget_seconds=settings.BOT_SEARCH_SECONDS,
    )
    try:
        play.game_take_action(
            game_id=game_id,
            action=engine.action_to_json(action),
            expected_version=expected_version,
            as_bot=True,
        )
    except StaleVersion:
        return "stale"
    except GameError as error:
        # The service checks the game's status before its version, so a game aborted while the
        # bot was thinking answers "not in progress": that is a late delivery, not a failure.
        if _has_moved_on(game_id, expected_version):
            return "stale"
        logger.error("bot in seat %s of game %s failed: %s", seat, game_id, error.message)
        raise  # a bot must never stall a game silently
    # From the event whose commit queued this turn to now, the bot's move committed.
    queued_at = (
        GameEvent.objects.filter(game_id=game_id, seq=expected_version)
        .values_list("created_at", flat=True)
        .first()
    )
    if queued_at is not None:
        queue = (play_bot_turn.request.delivery_info or {}).get("routing_key") or "in_process"
        waited = (timezone.now() - queued_at).total_seconds()
        metrics.BOT_TURN_SECONDS.labels(queue=queue).observe(waited)
    return "played"


@shared_task
def sweep_stuck_bot_turns() -> int:
    """Queue again the bot turns that have waited too long (a lost message, a dead worker).

    Beat runs this every ``BOT_SWEEP_INTERVAL_SECONDS``. A turn counts as stuck when the game
    has waited for a bot longer than ``BOT_TURN_STUCK_AFTER_SECONDS``; queuing one that is only
    slow is harmless, since the second delivery finds the game moved on.
    """
    waited_since = timezone.now() - timedelta(seconds=settings.BOT_TURN_STUCK_AFTER_SECONDS)
    has_player = Exists(Seat.objects.filter(game=OuterRef("pk"), user__isnull=False))
    stuck = (
        Game.objects.filter(
            status=Status.ACTIVE,
            updated_at__lt=waited_since,
            seats__index=F("acting_seat"),
            seats__bot_level__gt="",
        )
        .annotate(has_player=has_player)
        .values_list("pk", "version", "has_player")
    )
    count = 0
    for game_id, version, with_player in stuck:
        enqueue(play_bot_turn, game_id, version, queue=bot_queue(with_player=with_player))
        count += 1
    if count:
        logger.info("queued %s stuck bot turn(s) again", count)
    return count


def bot_queue(*, with_player: bool) -> str:
    """Where a bot turn goes: ahead of games between bots only when a player waits for it."""
    return settings.BOT_QUEUE_WITH_PLAYERS if with_player else settings.BOT_QUEUE_BOTS_ONLY


def queue_bot_turn(game_id: int, version: int) -> None:
    """Queue a bot turn if the game, still at ``version``, waits for a bot (asks the database)."""
    seats = Seat.objects.filter(
        game_id=game_id, game__status=Status.ACTIVE, game__version=version
    ).values_list("index", "user_id", "bot_level", "game__acting_seat")
    waits_for_bot = any(index == acting and bot for index, _user, bot, acting in seats)
    if waits_for_bot:
        with_player = any(user is not None for _index, user, _bot, _acting in seats)
        enqueue_bot_turn(game_id, version, with_player=with_player)


def enqueue_bot_turn(game_id: int, version: int, *, with_player: bool) -> None:
    """Queue the bot turn the game waits for at ``version``: the after-commit hook of the
    commands when the writer saw that a bot moves next (``games.apps``); ``with_player``: a
    player has a seat in the game (``bot_queue``)."""
    try:
        enqueue(play_bot_turn, game_id, version, queue=bot_queue(with_player=with_player))
    except BrokerUnavailable as error:
        # The move that led here is committed and must stand; the sweeper queues the turn once
        # the broker answers again.
        logger.warning(
            "broker unavailable, bot turn of game %s at version %s left to the sweeper: %s",
            game_id,
            version,
            error,
        )


def _has_moved_on(game_id: int, version: int) -> bool:
    return not Game.objects.filter(pk=game_id, version=version).exists()
