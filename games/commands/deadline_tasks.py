"""Deadlines at work: the sweeper that plays turns whose time ran out, and the bot standing in
for a player whose seat was handed to it.

Both call ``games.commands.deadlines`` with the greedy bot as the chooser; its commands lock the
game and check the deadline again, so two sweepers racing, or a task delivered twice, apply it once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from kombu.exceptions import OperationalError as BrokerUnavailable

from games import engine, variants
from games.commands import deadlines as turn_deadlines
from games.commands.task_queue import enqueue
from games.models import Game, Seat
from games.vocabulary import Status

logger = logging.getLogger(__name__)

STANDING_IN_LEVEL = "greedy"
"""The bot that plays a timed-out turn and a seat handed over: quick, and plays sensibly."""


def greedy_chooser(game_id: int, version: int) -> turn_deadlines.Chooser:
    calls = 0

    def choose(view: dict[str, Any]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        # Seeded from the game and version, as bot turns are: a replay chooses the same.
        action = variants.choose_bot_action(
            STANDING_IN_LEVEL, view, seed=game_id * 1_000_003 + version * 7 + calls
        )
        return engine.action_to_json(action)

    return choose


# Named as they were before this module moved into games.commands, so that tasks queued by the
# previous release are still known to the workers of this one.
@shared_task(name="games.deadline_tasks.apply_turn_deadlines")
def apply_turn_deadlines(now: str | None = None) -> int:
    """Beat: play every turn whose time ran out (by ``now``, default the clock); re-queue the
    turns of seats handed to the bot that wait longer than a bot should."""
    moment = _moment(now)
    expired = Game.objects.filter(status=Status.ACTIVE, turn_deadline__lte=moment).values_list(
        "pk", "version"
    )
    applied = 0
    for game_id, version in expired:
        if turn_deadlines.game_time_out_turn(
            game_id=game_id,
            expected_version=version,
            now=moment,
            choose=greedy_chooser(game_id, version),
        ):
            applied += 1
    stuck_since = moment - timedelta(seconds=settings.BOT_TURN_STUCK_AFTER_SECONDS)
    stuck = Game.objects.filter(
        status=Status.ACTIVE,
        updated_at__lt=stuck_since,
        seats__index=F("acting_seat"),
        seats__is_away=True,
    ).values_list("pk", "version")
    for game_id, version in stuck:
        enqueue(play_for_away_seat, game_id, version)
    if applied:
        logger.info("played %s turn(s) whose time ran out", applied)
    return applied


@shared_task(name="games.deadline_tasks.play_for_away_seat", acks_late=True)
def play_for_away_seat(game_id: int, version: int) -> str:
    played = turn_deadlines.game_play_for_away_seat(
        game_id=game_id, expected_version=version, choose=greedy_chooser(game_id, version)
    )
    return "played" if played else "stale"


def queue_away_turn(game_id: int, version: int) -> None:
    """After-commit hook: the bot plays at once for a seat handed to it."""
    waits_for_away_seat = Seat.objects.filter(
        game_id=game_id,
        game__status=Status.ACTIVE,
        game__version=version,
        index=F("game__acting_seat"),
        is_away=True,
    ).exists()
    if not waits_for_away_seat:
        return
    try:
        enqueue(play_for_away_seat, game_id, version)
    except BrokerUnavailable as error:
        logger.warning("broker unavailable, away seat of game %s left to the sweeper: %s",
                       game_id, error)  # fmt: skip


def _moment(now: str | None) -> datetime:
    if now is None:
        return timezone.now()
    moment = parse_datetime(now)
    if moment is None:
        raise ValueError(f"not a date and time: {now!r}")
    return moment
