"""Finished games' events, read straight from the event table for the folds: fast, streaming.

A fold needs every event's kind, payload, seat and schema version in order, and the time of the
``GameFinished`` event. Through the ORM each row costs more than folding its action, so the rows
come from one SQL query (a server-side cursor on PostgreSQL: memory stays flat however many
games there are), only the finish carries its time, and payloads stay JSON text: the fold parses
what it needs (``analytics.extract``). Works on SQLite too (the quick start).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils.dateparse import parse_datetime

from analytics.extract import EventRow
from games.models import Game, GameEvent
from games.vocabulary import EventKind, Status

CHUNK_ROWS = 5000
GameEvents = tuple[int, list[EventRow]]
"""A game's id and its events in order."""

_EVENTS = GameEvent._meta.db_table
_GAMES = Game._meta.db_table
_SELECT = (
    f"SELECT e.game_id, e.kind, e.payload, e.seat, "
    f"CASE WHEN e.kind = %s THEN e.created_at END, e.schema_version FROM {_EVENTS} e "
)
_FINISHED = (
    _SELECT + f"WHERE e.game_id IN (SELECT g.id FROM {_GAMES} g WHERE g.status = %s "
    "AND g.variant IN ({variants})) ORDER BY e.game_id, e.seq"
)
_OF_GAMES = _SELECT + "WHERE e.game_id IN ({games}) ORDER BY e.game_id, e.seq"


def events_of_finished_games(variants: Sequence[str]) -> Iterator[GameEvents]:
    """Every finished game of ``variants``, in id order. Call it inside a transaction: on
    PostgreSQL the cursor lives on the server until the transaction ends."""
    if not variants:
        return iter(())
    sql = _FINISHED.format(variants=", ".join(["%s"] * len(variants)))
    params = [EventKind.GAME_FINISHED.value, Status.FINISHED.value, *variants]
    return _by_game(_stream(sql, params))


def events_of_games(game_ids: Sequence[int]) -> Iterator[GameEvents]:
    """The events of a few games (in one query), in id order; games without events are left out."""
    if not game_ids:
        return iter(())
    sql = _OF_GAMES.format(games=", ".join(["%s"] * len(game_ids)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [EventKind.GAME_FINISHED.value, *game_ids])
        rows = cursor.fetchall()
    return _by_game(rows)


def _stream(sql: str, params: list[Any]) -> Iterator[Sequence[Any]]:
    cursor = connection.chunked_cursor()
    try:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(CHUNK_ROWS):
            yield from rows
    finally:
        cursor.close()


def _by_game(rows: Iterable[Sequence[Any]]) -> Iterator[GameEvents]:
    """(game_id, kind, payload, seat, finished_at, schema_version) rows, grouped by game."""
    game, events = None, []
    for game_id, kind, payload, seat, finished_at, schema_version in rows:
        if game_id != game:
            if events:
                yield game, events
            game, events = game_id, []
        if not isinstance(payload, str):  # a driver that parses JSON itself
            payload = json.dumps(payload, sort_keys=True)
        if finished_at is not None:
            finished_at = _aware(finished_at)
        events.append((kind, payload, seat, finished_at, schema_version))
    if events:
        yield game, events


def _aware(value: datetime | str) -> datetime:
    """SQLite gives text, and a naive time in UTC when it keeps no offset."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        raise ValueError(f"not a time: {value!r}")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
