"""The two reads under every replay and snapshot load, as plain rows: a game's row, its events.

Through the ORM these cost more than what is then done with them: a query built and a model
instance made per row, every JSON payload decoded though most repeat, and on PostgreSQL each
time read by Django's timestamp loader, written in Python (about 10 µs a value: more than the
engine's step for an action). Here one fixed statement per read fetches plain values:

* on PostgreSQL a time comes as ISO 8601 text in UTC, spelled by the database in one fixed
  format, and becomes the same aware UTC ``datetime`` Django would have built (parsed in C:
  ``datetime.fromisoformat``, a tenth of the time of the loader or of any arithmetic);
* JSON comes as text; ``ActionTaken`` payloads are parsed once per process
  (:func:`action_taken_from_text`);
* every other column goes through the converters Django's ORM applies to it, so a ``Game``
  from :func:`game_row` equals one from ``Game.objects.get``, on any database.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, models

from games import engine
from games.models import Game, GameEvent
from games.projection import CURRENT_SCHEMA_VERSION, Event, upcast

_ISO_UTC = 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'
"""``to_char``'s pattern for a time as ISO 8601 with its offset, always to the microsecond."""
_ACTION_TAKEN = GameEvent.Kind.ACTION_TAKEN.value

Converter = Callable[[Any, Any, Any], Any]
"""Django's converter signature: (value, expression, connection) → value."""


@dataclass(frozen=True)
class _RowRead:
    """One model's columns as a statement's select list, and what turns each value into the
    field's Python value."""

    select: str
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, Converter, Any], ...]
    """(position, converter, the column's expression) for the values that need one."""

    def convert(self, row: Sequence[Any]) -> list[Any]:
        return _converted(row, self.converters)


_READS: dict[tuple[str, type[models.Model], tuple[str, ...]], _RowRead] = {}


def _row_read(model: type[models.Model], names: tuple[str, ...] = ()) -> _RowRead:
    """The select list of ``model``'s fields named ``names`` (all its columns if none), made
    once per database vendor."""
    key = (connection.vendor, model, names)
    read = _READS.get(key)
    if read is None:
        read = _READS[key] = _make_row_read(model, names)
    return read


def _make_row_read(model: type[models.Model], names: tuple[str, ...]) -> _RowRead:
    opts = model._meta
    fields = [opts.get_field(name) for name in names] if names else list(opts.concrete_fields)
    times_as_text = connection.vendor == "postgresql" and connection.timezone is UTC
    quote = connection.ops.quote_name
    columns, converters = [], []
    for index, field in enumerate(fields):
        assert isinstance(field, models.Field)
        column = quote(field.column)
        if times_as_text and isinstance(field, models.DateTimeField):
            columns.append(f"to_char({column} AT TIME ZONE 'UTC', '{_ISO_UTC}')")
            converters.append((index, _from_iso, None))
            continue
        columns.append(column)
        expression = field.get_col(opts.db_table)
        for convert in [
            *connection.ops.get_db_converters(expression),
            *field.get_db_converters(connection),
        ]:
            converters.append((index, convert, expression))
    return _RowRead(
        select=", ".join(columns),
        attnames=tuple(field.attname for field in fields),
        converters=tuple(converters),
    )


def _from_iso(value: str | None, _expression: object, _connection: object) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def game_row(game_id: int) -> Game | None:
    """The game's row as a model instance, as ``Game.objects.filter(pk=game_id).first()``."""
    read = _row_read(Game)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {read.select} FROM {Game._meta.db_table} WHERE id = %s", [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return Game.from_db(DEFAULT_DB_ALIAS, list(read.attnames), read.convert(row))


_EVENT_FIELDS = ("seq", "kind", "payload", "seat", "created_at", "schema_version")
_PAYLOAD, _CREATED_AT = _EVENT_FIELDS.index("payload"), _EVENT_FIELDS.index("created_at")


def game_events(game_id: int, variant: str) -> Iterator[Event]:
    """The game's events in order, payloads upcast, as the fold takes them.

    ``ActionTaken`` events carry their action already parsed (``Event.action``); their
    payloads are shared between the events that recorded the same text: read them, never
    change them.
    """
    read = _row_read(GameEvent, _EVENT_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {read.select} FROM {GameEvent._meta.db_table} WHERE game_id = %s ORDER BY seq",
            [game_id],
        )
        rows = cursor.fetchall()
    # The payload's converter (JSON decoding, without a decoder of its own) is left out: only
    # payloads not seen yet need it, decoded below.
    converters = tuple(item for item in read.converters if item[0] != _PAYLOAD)
    times_as_text = converters == ((_CREATED_AT, _from_iso, None),)
    from_iso = datetime.fromisoformat
    for row in rows:
        if times_as_text:  # the one conversion on PostgreSQL, inline: once per event
            seq, kind, payload, seat, text, schema_version = row
            created_at = None if text is None else from_iso(text)
        else:
            seq, kind, payload, seat, created_at, schema_version = _converted(row, converters)
        if type(payload) is str:
            if kind == _ACTION_TAKEN and schema_version == CURRENT_SCHEMA_VERSION:
                payload, action = action_taken_from_text(variant, payload)
                yield Event(seq, kind, payload, seat, created_at, schema_version, action)
                continue
            payload = json.loads(payload)
        payload = upcast(kind, schema_version, payload)
        yield Event(seq, kind, payload, seat, created_at, schema_version)


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


def _converted(row: Sequence[Any], converters: tuple[tuple[int, Converter, Any], ...]) -> list[Any]:
    values = list(row)
    for index, convert, expression in converters:
        values[index] = convert(values[index], expression, connection)
    return values
