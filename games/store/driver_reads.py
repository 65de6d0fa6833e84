"""Statements run on the database driver's own cursor: the reads under every replay and
snapshot load (``row_reads``), where Django's cursor costs more than the statement's own work.

Django's cursor wrapper adds about 20 µs a statement, a tenth of a snapshot load; on
PostgreSQL a new psycopg cursor adds about 25 µs more on its first statement, where it looks up
a loader for each column. So :func:`fetch_all` takes the steps ``connection.cursor()`` and
``CursorWrapper.execute`` take, in the same order (the connection opened or reused, refused in
an async context, used by its own thread only, never in a broken transaction, errors as
Django's), without the wrapper, and keeps one binary cursor per connection. The wrapper is used
whenever it has work to do: while queries are logged (``DEBUG``, a test counting queries) or an
execute wrapper is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper

_KEPT_CURSOR = "_games_binary_cursor"
"""Where a connection's wrapper keeps its binary cursor: Django makes one wrapper per thread,
so a cursor is never shared between threads, as Django's own are not."""


def fetch_all(
    db: BaseDatabaseWrapper, sql: str, params: Sequence[Any], *, binary: bool
) -> list[tuple[Any, ...]]:
    """The rows of one statement on ``db``, with results in binary if ``binary`` (PostgreSQL
    only: psycopg's loaders in C)."""
    db.close_if_health_check_failed()
    db.ensure_connection()  # refused in an async context, as ``connection.cursor()`` is
    db.validate_thread_sharing()
    rows: list[tuple[Any, ...]]
    if db.queries_logged or db.execute_wrappers:
        with db.wrap_database_errors:
            cursor = _binary_cursor(db) if binary else db.create_cursor()
        wrapped = db.make_debug_cursor(cursor) if db.queries_logged else db.make_cursor(cursor)
        with wrapped:  # closes the cursor
            wrapped.execute(sql, params)
            rows = wrapped.fetchall()
        return rows
    db.validate_no_broken_transaction()
    with db.wrap_database_errors:
        if binary:
            cursor = _kept_binary_cursor(db)
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            return rows
        cursor = db.create_cursor()
        try:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        finally:
            cursor.close()
    return rows


def _kept_binary_cursor(db: BaseDatabaseWrapper) -> Any:
    """The binary cursor of ``db``'s current connection, made on its first statement: a new
    connection (after a close, a failure, ``CONN_MAX_AGE``) gets a new one."""
    kept = db.__dict__.get(_KEPT_CURSOR)
    if kept is None or kept.closed or kept.connection is not db.connection:
        kept = db.__dict__[_KEPT_CURSOR] = _binary_cursor(db)
    return kept


def _binary_cursor(db: BaseDatabaseWrapper) -> Any:
    """A psycopg cursor binding parameters on the server, as binary results need (Django's
    own cursor binds them in the client, in text)."""
    import psycopg

    cursor = psycopg.Cursor(db.connection)
    cursor.format = psycopg.pq.Format.BINARY
    return cursor
