"""Back the database up into one file: ``pg_dump`` in its custom format on PostgreSQL, SQLite's
online backup on SQLite. docs/operations.md says how to restore either and check the result."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from games.models import Game, GameEvent


class Command(BaseCommand):
    help = (
        "Write a backup of the database to PATH: a pg_dump archive (custom format, for "
        "pg_restore) on PostgreSQL, a copy of the database file on SQLite. The site may keep "
        "running: both take a consistent snapshot."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the backup file to write (replaced)")

    def handle(self, *args: Any, path: Path, **options: Any) -> None:
        path = path.resolve()
        if not path.parent.is_dir():
            raise CommandError(f"{path.parent} is not a directory")
        # Written beside, then renamed: a backup that failed halfway never replaces a good one.
        partial = path.with_name(path.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            if connection.vendor == "postgresql":
                dump_postgresql(partial)
            elif connection.vendor == "sqlite":
                copy_sqlite(partial)
            else:
                raise CommandError(f"no backup for a {connection.vendor} database")
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        partial.replace(path)
        games, events = Game.objects.count(), GameEvent.objects.count()
        self.stdout.write(f"backed up {games} game(s), {events} event(s) to {path}")


def dump_postgresql(target: Path) -> None:
    """As the owner role when there is one: it owns every table and sequence, so the dump
    misses nothing, and it is the role that restores."""
    db = settings.DATABASES["default"]
    owner = settings.DATABASE_OWNER or {"USER": db.get("USER"), "PASSWORD": db.get("PASSWORD")}
    env = {**os.environ}
    if owner.get("PASSWORD"):
        env["PGPASSWORD"] = str(owner["PASSWORD"])
    command = ["pg_dump", "--format=custom", "--no-password", f"--file={target}"]
    for option, value in (
        ("--host", db.get("HOST")),
        ("--port", db.get("PORT")),
        ("--username", owner.get("USER")),
    ):
        if value:
            command.append(f"{option}={value}")
    command.append(str(db["NAME"]))
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise CommandError("pg_dump is not installed (PostgreSQL's client tools)") from error
    if done.returncode != 0:
        raise CommandError(f"pg_dump failed: {done.stderr.strip()}")


def copy_sqlite(target: Path) -> None:
    """SQLite's online backup (what the sqlite3 shell's ``.backup`` does): a consistent copy
    even while the site writes."""
    source = sqlite3.connect(str(settings.DATABASES["default"]["NAME"]))
    copy = sqlite3.connect(str(target))
    try:
        with copy:
            source.backup(copy)
    finally:
        copy.close()
        source.close()
