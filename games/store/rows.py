"""Model rows read and written in SQL, for the few statements every API action runs.

``RawQuerySet`` works out on every query which column feeds which field and how each value
is converted, from the cursor's description; ``Model.save`` and ``QuerySet.create`` compile
their statement on every call. On the hottest path of the API (one action: a locked read, an
event inserted, the game row updated) that cost more CPU than the round trips themselves.
Here it is worked out once per model and database, and each call only converts the values.
The values pass through the fields' own conversions (``from_db_value``, ``pre_save``,
``get_db_prep_save``), so a row means what the ORM would make of it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

ModelT = TypeVar("ModelT", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class ModelColumns(Generic[ModelT]):
    """A model's concrete columns in a fixed order: ``select`` names them, ``build`` makes an
    instance from the first ``len(self)`` values of a row selected that way."""

    model: type[ModelT]
    attnames: tuple[str, ...]
    quoted_columns: tuple[str, ...]
    converters: tuple[tuple[int, Any, tuple[Converter, ...]], ...]

    def __len__(self) -> int:
        return len(self.attnames)

    def select(self, alias: str) -> str:
        """The columns as an SQL select list, each qualified with the table's ``alias``."""
        return ", ".join(f"{alias}.{column}" for column in self.quoted_columns)

    def build(self, row: Sequence[Any]) -> ModelT:
        database = _database()
        values = list(row[: len(self.attnames)])
        for index, expression, functions in self.converters:
            for convert in functions:
                values[index] = convert(values[index], expression, database)
        return self.model.from_db(database.alias, self.attnames, values)


def _database() -> BaseDatabaseWrapper:
    """The default database's connection itself: ``django.db.connection`` is a proxy that
    looks it up again on each use."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _columns_of(model: type[ModelT], vendor: str) -> ModelColumns[ModelT]:
    """``model``'s columns for the database ``vendor`` (the cache key: converters differ)."""
    database = _database()
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        expression = field.get_col(model._meta.db_table)
        functions = database.ops.get_db_converters(expression) + expression.get_db_converters(
            database
        )
        if functions:
            converters.append((index, expression, tuple(functions)))
    return ModelColumns(
        model,
        tuple(field.attname for field in fields),
        tuple(database.ops.quote_name(field.column) for field in fields),
        tuple(converters),
    )


def columns(model: type[ModelT]) -> ModelColumns[ModelT]:
    return _columns_of(model, _database().vendor)


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with _database().cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


@dataclass(frozen=True)
class Update:
    """``UPDATE <table> SET <fields> WHERE <pk> = %s`` for one model instance."""

    sql: str
    fields: tuple[Field[Any, Any], ...]

    def run(self, instance: Model) -> int:
        """Write ``instance``'s values of the fields (``auto_now`` stamped as ``save`` does);
        the number of rows changed."""
        database = _database()
        params = [
            field.get_db_prep_save(field.pre_save(instance, False), database)
            for field in self.fields
        ]
        params.append(instance.pk)
        with database.cursor() as cursor:
            cursor.execute(self.sql, params)
            return int(cursor.rowcount)


@functools.cache
def _update_of(model: type[Model], field_names: tuple[str, ...], vendor: str) -> Update:
    """The update of ``field_names`` of ``model`` for the database ``vendor``."""
    quote = _database().ops.quote_name
    fields = tuple(model._meta.get_field(name) for name in field_names)
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)  # type: ignore[union-attr]
    pk = model._meta.pk
    assert pk is not None
    sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {quote(pk.column)} = %s"
    return Update(sql, fields)  # type: ignore[arg-type]


def update(instance: Model, field_names: tuple[str, ...]) -> int:
    """Write ``field_names`` of ``instance`` to its row; the number of rows changed (0 or 1)."""
    return _update_of(type(instance), field_names, _database().vendor).run(instance)


@dataclass(frozen=True)
class Insert:
    """``INSERT INTO <table> (<fields>) VALUES (...)``, without reading the new id back."""

    sql: str
    fields: tuple[Field[Any, Any], ...]

    def run(self, instance: Model) -> None:
        database = _database()
        params = [
            field.get_db_prep_save(field.pre_save(instance, True), database)
            for field in self.fields
        ]
        with database.cursor() as cursor:
            cursor.execute(self.sql, params)


@functools.cache
def _insert_of(model: type[Model], vendor: str) -> Insert:
    """The insert of every concrete field but the automatic primary key."""
    quote = _database().ops.quote_name
    fields = tuple(field for field in model._meta.concrete_fields if not field.primary_key)
    names = ", ".join(quote(field.column) for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({placeholders})"
    return Insert(sql, fields)


def insert(instance: Model) -> None:
    """Insert ``instance`` as a new row; its ``pk`` stays unset."""
    _insert_of(type(instance), _database().vendor).run(instance)
