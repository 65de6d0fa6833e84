"""Rows <-> records: the one mapping between a game's rows (``Game``, ``Seat``) and its
``GameRecord`` (``games.records.record``), both ways.

Reading, the record a command appends to: ``record_from_rows`` takes the read models and the
snapshot (replaying the log, ``record_from_log``, when they cannot tell everything), and
``seat_record`` makes a seat row's values a ``SeatRecord``. Writing: ``save_game_row`` and
``save_seat_rows`` write a record onto the rows. The writer (``games.commands.writer``) saves
every command's record through them and ``games.commands.integrity`` rebuilds a game's rows
through them, so the read models have one write path; ``game_columns`` is what a record says a
game's row holds, for the integrity check to compare.

Every column a record determines is the record's attribute of the same name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple
from typing import Any

from django.db import DatabaseError

from games import engine
from games.models import Game, Seat
from games.records import projection
from games.records.record import GameRecord, SeatRecord
from games.store import row_reads, rows, state_cache

CREATION_COLUMNS = ("variant", "seat_count", "options", "created_by_id", "is_public", "origin")
"""The game's columns set once, from ``GameCreated``, when its row is made."""

EVENT_COLUMNS = (
    "status", "version", "commitment", "acting_seat", "result", "started_at", "finished_at",
    "move_seconds", "turn_version", "turn_started_at", "turn_deadline", "reminder_at",
)  # fmt: skip
"""The game's columns that the events after ``GameCreated`` change: what the writer saves."""

GAME_COLUMNS = CREATION_COLUMNS + EVENT_COLUMNS
"""Every column of the game's row that its record determines, the snapshot aside."""

_COPIED = frozenset({"options", "origin"})
"""JSON columns a row holds its own copy of, not the record's mapping."""

SEAT_COLUMNS = ("user_id", "bot_level", "display_name", "is_away", "timeouts_in_row")
"""A seat row's columns, in the order of ``SeatRecord``'s fields."""


# Rows -> record -------------------------------------------------------------------------------


def record_from_log(game: Game, *, checked: bool = False) -> GameRecord:
    """The game rebuilt from its whole event log, ignoring every read model.

    ``checked`` makes the engine check every recorded action again (``projection.replay``).
    """
    return projection.replay(row_reads.game_events(game.pk, game.variant), checked=checked)


def record_from_rows(game: Game, *, seats: tuple[SeatRecord, ...] | None = None) -> GameRecord:
    """The game as the commands need it before appending: read models plus the snapshot.

    ``seats`` are the game's seats in order, when the caller read them with the game.
    Falls back to a full replay when the snapshot is not current. The setup is not loaded on
    the fast path: nothing after the start needs it.
    """
    snapshot_is_current = game.snapshot is not None and game.snapshot_version == game.version
    if game.started_at is not None and not snapshot_is_current:
        return record_from_log(game)
    if game.started_at is None and game.origin:
        return record_from_log(game)  # a fork waiting for players: its position is in the log
    if seats is None:
        seats = tuple(
            SeatRecord(*row)
            for row in Seat.objects.filter(game=game).order_by("index").values_list(*SEAT_COLUMNS)
        )
    resigned = tuple(game.result.get("resigned", ())) if game.result else ()
    return GameRecord(
        variant=game.variant,
        seat_count=game.seat_count,
        options=game.options,
        is_public=game.is_public,
        created_by_id=game.created_by_id,
        seats=seats,
        status=game.status,
        version=game.version,
        commitment=game.commitment,
        state=None
        if game.snapshot is None
        else state_cache.decoded_state(game.pk, game.snapshot_version, game.snapshot),
        result=game.result,
        created_at=game.created_at,
        started_at=game.started_at,
        finished_at=game.finished_at,
        resigned=resigned,
        move_seconds=game.move_seconds,
        turn_version=game.turn_version,
        turn_started_at=game.turn_started_at,
        origin=game.origin,
    )


def seat_record(values: Sequence[Any]) -> SeatRecord:
    """A seat from the values of its ``SEAT_COLUMNS``, as a row read in SQL gives them (a
    database without booleans gives ``is_away`` as a number)."""
    user_id, bot_level, display_name, is_away, timeouts_in_row = values
    return SeatRecord(user_id, bot_level, display_name, bool(is_away), timeouts_in_row)


def seat_record_of(seat: Seat) -> SeatRecord:
    """What a seat row holds, as a record."""
    return SeatRecord(
        seat.user_id, seat.bot_level, seat.display_name, seat.is_away, seat.timeouts_in_row
    )


# Record -> rows -------------------------------------------------------------------------------


def game_columns(record: GameRecord, names: Sequence[str] = GAME_COLUMNS) -> dict[str, Any]:
    """The values ``record`` gives the game's columns ``names``, by attribute name."""
    values = {name: getattr(record, name) for name in names}
    for name in _COPIED.intersection(values):
        if values[name] is not None:
            values[name] = dict(values[name])
    return values


def save_game_row(game: Game, record: GameRecord, names: Sequence[str] = EVENT_COLUMNS) -> None:
    """Write ``record`` onto the game's row: its columns ``names`` and the snapshot of its
    state, which the state cache keeps decoded for the next read of this version (should this
    write roll back, the cached snapshot matches no read)."""
    for name, value in game_columns(record, names).items():
        setattr(game, name, value)
    if record.state is not None:
        game.snapshot = engine.state_to_json(record.state)
        game.snapshot_version = record.version
        state_cache.remember(game.pk, record.version, game.snapshot, record.state)
    if rows.update(game, (*names, "snapshot", "snapshot_version", "updated_at")) != 1:
        raise DatabaseError(f"game {game.pk} was not saved")


def save_seat_rows(game: Game, record: GameRecord) -> None:
    """Write the record's seats onto the game's seat rows: each row that differs is updated, a
    missing one made, one beyond the seat count deleted."""
    stored = list(Seat.objects.filter(game=game))
    if any(seat.index >= record.seat_count for seat in stored):
        Seat.objects.filter(game=game, index__gte=record.seat_count).delete()
    found = {seat.index: seat for seat in stored}
    for index, wanted in enumerate(record.seats):
        seat = found.get(index)
        if seat is None:
            Seat.objects.create(game=game, index=index, **_seat_columns(wanted))
        elif seat_record_of(seat) != wanted:
            for name, value in _seat_columns(wanted).items():
                setattr(seat, name, value)
            seat.save(update_fields=SEAT_COLUMNS)


def _seat_columns(seat: SeatRecord) -> dict[str, Any]:
    return dict(zip(SEAT_COLUMNS, astuple(seat), strict=True))
