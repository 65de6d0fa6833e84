"""Checking and rebuilding read models against the event log, the source of truth."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games import engine
from games.models import Game, Seat
from games.reads.loading import game_replay
from games.records.changes import ImpossibleEvent
from games.records.record import GameRecord, SeatRecord

IMPOSSIBLE_EVENT = "impossible event"
"""How a difference naming an event no game can contain begins (``holds_an_impossible_event``)."""


def read_model_differences(game: Game) -> list[str]:
    """Every way the game's rows and snapshot differ from a full replay of its events."""
    try:
        record = game_replay(game, checked=True)
    except ImpossibleEvent as error:
        return [f"{IMPOSSIBLE_EVENT} at {error}"]
    except Exception as error:  # a log that cannot be replayed is the worst difference of all
        return [f"replay failed: {error!r}"]
    expected = _read_model_fields(record)
    if game.created_by_id is None and not _user_exists(record.created_by_id):
        expected["created_by_id"] = None  # the creator's account was deleted since
    differences = [
        f"{name}: stored {getattr(game, name)!r}, replay gives {value!r}"
        for name, value in expected.items()
        if getattr(game, name) != value
    ]
    if record.state is not None:
        if game.snapshot_version != record.version:
            differences.append(f"snapshot is at version {game.snapshot_version}, not current")
        elif game.snapshot != engine.state_to_json(record.state):
            differences.append("snapshot differs from the replayed state")
    stored_seats = list(Seat.objects.filter(game=game).order_by("index"))
    if [seat.index for seat in stored_seats] != list(range(record.seat_count)):
        differences.append("seat rows do not match the seat count")
    for seat in stored_seats:
        if seat.index >= record.seat_count:
            continue
        wanted = record.seats[seat.index]
        stored = _seat_fields(seat)
        if stored != _seat_fields(wanted):
            differences.append(f"seat {seat.index}: stored {stored}, replay gives {wanted}")
    return differences


def holds_an_impossible_event(differences: list[str]) -> bool:
    """Whether ``read_model_differences`` found an event no game can contain in the log."""
    return bool(differences) and differences[0].startswith(IMPOSSIBLE_EVENT)


def rebuild_read_models(game: Game) -> bool:
    """Rewrite the game's rows and snapshot from its events; True if anything changed."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if not read_model_differences(game):
            return False
        record = game_replay(game, checked=True)
        for name, value in _read_model_fields(record).items():
            setattr(game, name, value)
        if not _user_exists(record.created_by_id):
            game.created_by_id = None
        if record.state is not None:
            game.snapshot = engine.state_to_json(record.state)
            game.snapshot_version = record.version
        game.save()
        Seat.objects.filter(game=game, index__gte=record.seat_count).delete()
        for index, wanted in enumerate(record.seats):
            Seat.objects.update_or_create(
                game=game,
                index=index,
                defaults={
                    "user_id": wanted.user_id,
                    "bot_level": wanted.bot_level,
                    "display_name": wanted.display_name,
                    "is_away": wanted.is_away,
                    "timeouts_in_row": wanted.timeouts_in_row,
                },
            )
    return True


def _read_model_fields(record: GameRecord) -> dict[str, Any]:
    return {
        "variant": record.variant,
        "seat_count": record.seat_count,
        "options": dict(record.options),
        "created_by_id": record.created_by_id,
        "is_public": record.is_public,
        "status": record.status,
        "version": record.version,
        "commitment": record.commitment,
        "acting_seat": record.acting_seat,
        "result": record.result,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "move_seconds": record.move_seconds,
        "turn_version": record.turn_version,
        "turn_started_at": record.turn_started_at,
        "turn_deadline": record.turn_deadline,
        "reminder_at": record.reminder_at,
        "origin": None if record.origin is None else dict(record.origin),
    }


def _seat_fields(seat: Seat | SeatRecord) -> tuple[Any, ...]:
    return (seat.user_id, seat.bot_level, seat.display_name, seat.is_away, seat.timeouts_in_row)


def _user_exists(user_id: int | None) -> bool:
    return user_id is not None and get_user_model().objects.filter(pk=user_id).exists()
