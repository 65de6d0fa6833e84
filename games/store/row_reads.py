"""The two reads under every replay and snapshot load, as plain rows: a game's row, its events.

Through the ORM these cost more than what is then done with them: a query built and a model
instance made per row, every JSON payload decoded though most repeat, and on PostgreSQL each
time read by Django's timestamp loader, written in Python (about 10 µs a value: more than the
engine's step for an action). Here one fixed statement per read fetches plain values:

* on PostgreSQL (in UTC, as Django sets the session) the results come in binary, each value
  made by psycopg's loaders in C: a time is the same aware UTC ``datetime`` Django would have
  built, with no text to format on the server (``to_char`` cost about 1 µs a row) or to parse
  here;
* JSON comes as text; ``ActionTaken`` payloads are parsed once per process
  (:func:`action_taken_from_text`);
* every other column goes through the converters Django's ORM applies to it, so a ``Game``
  from :func:`game_row` equals one from ``Game.objects.get``, on any database.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from games import engine
from games.errors import GameNotFound
from games.models import Game, GameEvent
from games.records.projection import upcast
from games.records.record import CURRENT_SCHEMA_VERSION, Event
from games.store.driver_reads import fetch_all
from games.vocabulary import EventKind

_ACTION_TAKEN = EventKind.ACTION_TAKEN.value

Converter = Callable[[Any, Any, Any], Any]
"""Django's converter signature: (value, expression, connection) → value."""

_BINARY_AS_THE_ORM = (
    *("bigint", "integer", "smallint", "boolean", "varchar", "text"),
    "timestamp with time zone",
    "jsonb",
)
"""PostgreSQL column types whose values psycopg loads in binary as the ORM's text read gives
them: numbers, flags and strings (``varchar`` of any length); times in the session's time zone,
UTC (``_reads_in_binary``); jsonb selected as text (``_make_row_read``)."""


@dataclass(frozen=True)
class _RowRead:
    """One model's columns as a statement's select list, and what turns each value into the
    field's Python value."""

    select: str
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, Converter, Any], ...]
    """(position, converter, the column's expression) for the values that need one."""
    binary: bool
    """Fetch the results in binary (``driver_reads.fetch_all``)."""

    def convert(self, row: Sequence[Any], db: BaseDatabaseWrapper) -> list[Any]:
        return _converted(row, self.converters, db)


_READS: dict[tuple[str, type[models.Model], tuple[str, ...]], _RowRead] = {}


def _row_read(
    db: BaseDatabaseWrapper, model: type[models.Model], names: tuple[str, ...] = ()
) -> _RowRead:
    """The select list of ``model``'s fields named ``names`` (all its columns if none), made
    once per database vendor."""
    key = (db.vendor, model, names)
    read = _READS.get(key)
    if read is None:
        read = _READS[key] = _make_row_read(db, model, names)
    return read


def _make_row_read(
    db: BaseDatabaseWrapper, model: type[models.Model], names: tuple[str, ...]
) -> _RowRead:
    opts = model._meta
    fields = [opts.get_field(name) for name in names] if names else list(opts.concrete_fields)
    assert all(isinstance(field, models.Field) for field in fields)
    binary = _reads_in_binary(db, fields)
    quote = db.ops.quote_name
    columns, converters = [], []
    for index, field in enumerate(fields):
        column = quote(field.column)
        expression = field.get_col(opts.db_table)
        # In binary, jsonb would come decoded by psycopg's JSON loader, in Python; as text
        # it takes the field's own decoding, as in the ORM.
        columns.append(f"{column}::text" if binary and field.db_type(db) == "jsonb" else column)
        for convert in [
            *db.ops.get_db_converters(expression),
            *field.get_db_converters(db),
        ]:
            converters.append((index, convert, expression))
    return _RowRead(
        select=", ".join(columns),
        attnames=tuple(field.attname for field in fields),
        converters=tuple(converters),
        binary=binary,
    )


def _reads_in_binary(db: BaseDatabaseWrapper, fields: Sequence[Any]) -> bool:
    """Whether ``fields`` read in binary as the ORM reads them: on PostgreSQL in UTC, each of
    a type in ``_BINARY_AS_THE_ORM``."""
    if db.vendor != "postgresql" or db.timezone is not UTC:
        return False
    return all(field.db_type(db).split("(")[0] in _BINARY_AS_THE_ORM for field in fields)


def game_key(game_id: object) -> int:
    """``game_id`` as a key the database can compare, for reads written in SQL; GameNotFound
    for anything that cannot be a game's id (the ORM answers those with no row as well)."""
    try:
        key = int(game_id)  # type: ignore[call-overload]
    except (ValueError, TypeError):
        raise GameNotFound(f"There is no game {game_id}.") from None
    if not 0 < key < 2**63:
        raise GameNotFound(f"There is no game {game_id}.")
    return key


def game_row(game_id: int) -> Game | None:
    """The game's row as a model instance, as ``Game.objects.filter(pk=game_id).first()``."""
    db = connections[DEFAULT_DB_ALIAS]
    read = _row_read(db, Game)
    sql = f"SELECT {read.select} FROM {Game._meta.db_table} WHERE id = %s"
    rows = fetch_all(db, sql, [game_id], binary=read.binary)
    if not rows:
        return None
    return Game.from_db(DEFAULT_DB_ALIAS, list(read.attnames), read.convert(rows[0], db))


_EVENT_FIELDS = ("seq", "kind", "payload", "seat", "created_at", "schema_version")
_PAYLOAD = _EVENT_FIELDS.index("payload")


def game_events(game_id: int, variant: str) -> Iterator[Event]:
    """The game's events in order, payloads upcast, as the fold takes them.

    ``ActionTaken`` events carry their action already parsed (``Event.action``); their
    payloads are shared between the events that recorded the same text: read them, never
    change them.
    """
    db = connections[DEFAULT_DB_ALIAS]
    read = _row_read(db, GameEvent, _EVENT_FIELDS)
    rows = fetch_all(
        db,
        f"SELECT {read.select} FROM {GameEvent._meta.db_table} WHERE game_id = %s ORDER BY seq",
        [game_id],
        binary=read.binary,
    )
    # The payload's converter (JSON decoding, without a decoder of its own) is left out: only
    # payloads not seen yet need it, decoded below. In binary there is no other.
    converters = tuple(item for item in read.converters if item[0] != _PAYLOAD)
    actions_known = _actions_taken
    # The loop runs once per event of the game: plain tuples of the Event type (as the named
    # tuple's generated ``__new__`` makes them, without its Python frame), the known actions
    # looked up in place.
    for row in rows:
        values = _converted(row, converters, db) if converters else row
        seq, kind, payload, seat, created_at, schema_version = values
        if type(payload) is str:
            if kind == _ACTION_TAKEN and schema_version == CURRENT_SCHEMA_VERSION:
                known = actions_known.get((variant, payload))
                if known is None:
                    known = action_taken_from_text(variant, payload)
                yield _new_tuple(
                    Event, (seq, kind, known[0], seat, created_at, schema_version, known[1])
                )
                continue
            payload = json.loads(payload)
        payload = upcast(kind, schema_version, payload)
        yield _new_tuple(Event, (seq, kind, payload, seat, created_at, schema_version, None))


_new_tuple = tuple.__new__
_ACTIONS_KEPT = 4096
_actions_taken: dict[tuple[str, str], tuple[Mapping[str, Any], engine.Action]] = {}


def action_taken_from_text(variant: str, text: str) -> tuple[Mapping[str, Any], engine.Action]:
    """A current-schema ``ActionTaken`` payload and its action, from the payload's JSON text.

    A game's log repeats a few hundred distinct payloads (take these gems, buy that card), so
    each is decoded and parsed once per process, not once per event: the payload returned is
    shared, to be read, never changed. At most ``_ACTIONS_KEPT`` are kept.
    """
    key = (variant, text)
    known = _actions_taken.get(key)
    if known is None:
        payload = json.loads(text)
        known = (payload, engine.action_from_json(payload["action"], variant))
        if len(_actions_taken) >= _ACTIONS_KEPT:
            _actions_taken.clear()
        _actions_taken[key] = known
    return known


def _converted(
    row: Sequence[Any],
    converters: tuple[tuple[int, Converter, Any], ...],
    db: BaseDatabaseWrapper,
) -> list[Any]:
    values = list(row)
    for index, convert, expression in converters:
        values[index] = convert(values[index], expression, db)
    return values
