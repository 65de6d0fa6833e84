"""Turn deadlines: a turn whose time ran out, a seat handed to the bot, and taken back.

Commands like those of ``games.commands.play``, through ``games.commands.writer.GameWriter``:
each locks the game row, checks again what it was asked under the lock, appends events and saves the
read models in one transaction (docs/decisions/0109-turn-deadlines.md). The sweeper and the bot
standing in for a player call them from ``games.commands.deadline_tasks``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import engine
from games.commands.checks import require_status, seat_of
from games.commands.writer import GameWriter
from games.errors import InvalidRequest
from games.models import Game
from games.vocabulary import EventKind, Status

# Chooses the action for the seat the game waits for, given that seat's own view (a bot).
Chooser = Callable[[dict[str, Any]], dict[str, Any]]

TIMEOUTS_BEFORE_HANDOVER = 2
"""Time-outs in a row after which a seat is handed to the greedy bot for good."""


def game_time_out_turn(*, game_id: int, expected_version: int, now: Any, choose: Chooser) -> bool:
    """Play the turn whose time ran out at ``now``: ``TurnTimedOut``, then ``choose``'s actions.

    Applied once: the game row is locked and the deadline checked again, so a second sweeper
    (or a late delivery) finds the game moved on and does nothing. Returns whether it applied.
    After ``TIMEOUTS_BEFORE_HANDOVER`` time-outs in a row the seat goes to the bot for good.
    """
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        deadline = record.turn_deadline
        if record.version != expected_version or deadline is None or deadline > now:
            return False
        seat = record.acting_seat
        assert seat is not None
        writer.append(
            EventKind.TURN_TIMED_OUT, {"seat": seat, "deadline": deadline.isoformat()}, seat=seat
        )
        _play_whole_turn(writer, seat, choose, flag="on_time_out")
        if writer.record.status == Status.ACTIVE and (
            writer.record.seats[seat].timeouts_in_row >= TIMEOUTS_BEFORE_HANDOVER
        ):
            writer.append(EventKind.SEAT_HANDED_TO_BOT, {"seat": seat}, seat=seat)
        writer.save()
    return True


def game_play_for_away_seat(*, game_id: int, expected_version: int, choose: Chooser) -> bool:
    """The greedy bot plays one turn for a seat handed to it; False if nothing was to play."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        seat = record.acting_seat
        if record.version != expected_version or seat is None or not record.seats[seat].is_away:
            return False
        _play_whole_turn(writer, seat, choose, flag="for_away_seat")
        writer.save()
    return True


def game_reclaim_seat(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Take one's seat back from the bot it was handed to after two time-outs."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        require_status(writer.record, Status.ACTIVE, "The game is not in progress.")
        index = seat_of(writer.record, user)
        if not writer.record.seats[index].is_away:
            raise InvalidRequest("Your seat is already yours: the bot is not playing it.")
        writer.append(EventKind.SEAT_RECLAIMED, {"seat": index}, seat=index, actor=user)
        writer.save()
    return writer.game


def _play_whole_turn(writer: GameWriter, seat: int, choose: Chooser, *, flag: str) -> None:
    """Actions from ``choose`` until the turn (with its follow-up decisions) leaves ``seat``."""
    while writer.record.acting_seat == seat:
        state = writer.record.state
        assert state is not None
        action = choose(engine.view(state, seat))
        writer.append(EventKind.ACTION_TAKEN, {"action": action, flag: True}, seat=seat)
        writer.finish_if_over()
