"""Checking and rebuilding read models against the event log, the source of truth.

What a record says the rows hold, and the writing of it, is ``games.store.records``: the writer
saves every command's record through it, and the rebuild here too.
"""

from __future__ import annotations

from dataclasses import astuple, replace

from django.contrib.auth import get_user_model
from django.db import transaction

from games import engine
from games.models import Game, Seat
from games.records.changes import ImpossibleEvent
from games.records.record import GameRecord
from games.store import records

IMPOSSIBLE_EVENT = "impossible event"
"""How a difference naming an event no game can contain begins (``holds_an_impossible_event``)."""


def read_model_differences(game: Game) -> list[str]:
    """Every way the game's rows and snapshot differ from a full replay of its events."""
    try:
        record = records.record_from_log(game, checked=True)
    except ImpossibleEvent as error:
        return [f"{IMPOSSIBLE_EVENT} at {error}"]
    except Exception as error:  # a log that cannot be replayed is the worst difference of all
        return [f"replay failed: {error!r}"]
    if game.created_by_id is None:
        record = _without_a_deleted_creator(record)
    expected = records.game_columns(record)
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
        stored = records.seat_record_of(seat)
        if stored != wanted:
            differences.append(
                f"seat {seat.index}: stored {astuple(stored)}, replay gives {wanted}"
            )
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
        record = _without_a_deleted_creator(records.record_from_log(game, checked=True))
        records.save_game_row(game, record, records.GAME_COLUMNS)
        records.save_seat_rows(game, record)
    return True


def _without_a_deleted_creator(record: GameRecord) -> GameRecord:
    """The record as the rows can hold it: no creator when the creator's account was deleted
    since (the row's reference to it was set to null)."""
    if record.created_by_id is None or _user_exists(record.created_by_id):
        return record
    return replace(record, created_by_id=None)


def _user_exists(user_id: int | None) -> bool:
    return user_id is not None and get_user_model().objects.filter(pk=user_id).exists()
