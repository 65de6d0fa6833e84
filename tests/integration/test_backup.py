"""A backup is proven by restoring it: `manage.py backup`, then the documented restore into a
fresh database, then every game replayed there (`verify_games`) and the event log compared,
row by row through a hash, with the original. On PostgreSQL and on SQLite."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

from games.models import GameEvent
from testing import synthetic

ROOT = Path(__file__).resolve().parents[2]

EVENT_COLUMNS = "game_id, seq, kind, payload, seat, schema_version, actor_id, created_at"


def log_digest(rows: Iterable[tuple[object, ...]]) -> tuple[int, str]:
    """How many events, and a hash over every column of each, in the log's order."""
    digest, count = hashlib.sha256(), 0
    for row in rows:
        digest.update(repr(row).encode())
        count += 1
    return count, digest.hexdigest()


def plans(user_ids: list[int]) -> list[synthetic.GamePlan]:
    people = [synthetic.SeatPlan(user_id=user_id) for user_id in user_ids]
    return [
        synthetic.GamePlan(seats=people, seed=1),
        synthetic.GamePlan(seats=[people[0], synthetic.SeatPlan(bot_level="greedy")], seed=2),
        synthetic.GamePlan(seats=people, seed=3, resign_at_turn=12),
        synthetic.GamePlan(seats=people, seed=4, variant="duel"),
        synthetic.GamePlan(seats=people, seed=5, finish=False, stop_at_turn=9),  # in progress
    ]


def manage(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("DATABASE_OWNER_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


# PostgreSQL ------------------------------------------------------------------------------------


def postgres_connect(dbname: str, *, as_owner: bool) -> psycopg.Connection[tuple[object, ...]]:
    db = settings.DATABASES["default"]
    who = settings.DATABASE_OWNER if as_owner and settings.DATABASE_OWNER else db
    return psycopg.connect(
        host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or None,
        user=who.get("USER") or None, password=who.get("PASSWORD") or None,
        dbname=dbname, autocommit=True, connect_timeout=5,
    )  # fmt: skip


def postgres_log(dbname: str) -> tuple[int, str]:
    with postgres_connect(dbname, as_owner=False) as conn:
        rows = conn.execute(f"SELECT {EVENT_COLUMNS} FROM games_gameevent ORDER BY game_id, seq")
        return log_digest((*row[:3], str(row[3]), *row[4:]) for row in rows)


@pytest.fixture
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty database owned by the owner role (docs/operations.md: `createdb --owner`)."""
    name = f"splendor_restore_{uuid.uuid4().hex[:8]}"
    with postgres_connect("postgres", as_owner=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield name
    with postgres_connect("postgres", as_owner=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_postgresql_backup_restores_into_a_fresh_database_with_every_game_replaying(
    tmp_path: Path, make_user: object, fresh_postgres_database: str
) -> None:
    users = [User.objects.create_user(name) for name in ("ann", "ben")]
    synthetic.write_games(plans([user.pk for user in users]))
    archive = tmp_path / "splendor.dump"
    source = str(settings.DATABASES["default"]["NAME"])

    call_command("backup", str(archive))

    db = settings.DATABASES["default"]
    owner = settings.DATABASE_OWNER or {"USER": db.get("USER"), "PASSWORD": db.get("PASSWORD")}
    env = {**os.environ, "PGPASSWORD": str(owner.get("PASSWORD") or "")}
    restored = subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--single-transaction",
         f"--host={db.get('HOST') or '127.0.0.1'}", f"--port={db.get('PORT') or 5432}",
         f"--username={owner['USER']}", f"--dbname={fresh_postgres_database}", str(archive)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert restored.returncode == 0, restored.stderr
    # The site's own role reads the copy, and every game replays to its stored state.
    app_url = (
        f"postgres://{db['USER']}"
        + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        + f"@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{fresh_postgres_database}"
    )
    verified = manage("verify_games", database_url=app_url)

    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "5 game(s) replayed, 0 with differences" in verified.stdout
    original = postgres_log(source)
    assert original[0] == GameEvent.objects.count() > 100
    assert postgres_log(fresh_postgres_database) == original


# SQLite ----------------------------------------------------------------------------------------

WRITE_GAMES = """
from django.contrib.auth.models import User
from testing import synthetic
from tests.integration.test_backup import plans
users = [User.objects.create_user(name) for name in ("ann", "ben")]
synthetic.write_games(plans([user.pk for user in users]))
"""


def sqlite_log(path: Path) -> tuple[int, str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(f"SELECT {EVENT_COLUMNS} FROM games_gameevent ORDER BY game_id, seq")
        return log_digest(rows)


@pytest.mark.slow
def test_a_sqlite_backup_is_a_database_where_every_game_replays(tmp_path: Path) -> None:
    live, copy = tmp_path / "db.sqlite3", tmp_path / "backup.sqlite3"
    live_url = f"sqlite:///{live}"
    for step in (("migrate", "--no-input", "-v", "0"), ("shell", "-c", WRITE_GAMES)):
        done = manage(*step, database_url=live_url)
        assert done.returncode == 0, done.stdout + done.stderr

    backed_up = manage("backup", str(copy), database_url=live_url)

    assert backed_up.returncode == 0, backed_up.stderr
    assert "backed up 5 game(s)" in backed_up.stdout
    # Restoring is putting the file where DATABASE_URL points (the site stopped).
    verified = manage("verify_games", database_url=f"sqlite:///{copy}")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "5 game(s) replayed, 0 with differences" in verified.stdout
    original = sqlite_log(live)
    assert original[0] > 100
    assert sqlite_log(copy) == original
