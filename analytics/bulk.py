"""Many rows into a table at once, for the rebuild: COPY on PostgreSQL, one batch elsewhere.

``bulk_create`` builds a model instance per row and, with psycopg's client-side binding, one
statement with a placeholder per value that the driver then scans: for a rebuild's hundreds of
thousands of rows that costs more than the folding. COPY streams plain tuples instead. Rows are
given in the order of ``fields``; JSON fields as text (``json.dumps``), since COPY takes text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


def insert_rows(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert ``rows`` (tuples of ``fields``' values) into ``model``'s table."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(
        connection.ops.quote_name(model._meta.get_field(name).column)  # type: ignore[union-attr]
        for name in fields
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        placeholders = ", ".join(["%s"] * len(fields))
        cursor.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({placeholders})",
            [list(row) for row in rows],
        )


def json_text(value: Any) -> str:
    """A JSON field's value as COPY and SQLite take it."""
    return json.dumps(value, separators=(",", ":"))
