"""``manage.py play_bots`` as a user runs it in embedded mode (no REDIS_URL): three whole games,
played in-process, whose event logs replay to exactly what was stored; on SQLite, the quick
start's database, and on PostgreSQL. Each run gets a fresh database of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]


def manage(
    database_url: str, *args: str, owner_url: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": ""}
    env.pop("DATABASE_OWNER_URL", None)  # the suite's own names another database
    if owner_url:
        env["DATABASE_OWNER_URL"] = owner_url
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def assert_plays_three_games_that_verify(database_url: str, owner_url: str | None = None) -> None:
    migrated = manage(database_url, "migrate", "--no-input", "-v0", owner_url=owner_url)
    assert migrated.returncode == 0, migrated.stderr

    played = manage(database_url, "play_bots", "--games", "3", "--bots", "greedy", "random")

    assert played.returncode == 0, played.stdout + played.stderr
    assert "3/3 finished" in played.stdout
    verified = manage(database_url, "verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "3 game(s) replayed, 0 with differences" in verified.stdout


def test_play_bots_plays_three_games_in_process_on_sqlite(tmp_path: Path) -> None:
    assert_plays_three_games_that_verify(f"sqlite:///{tmp_path / 'db.sqlite3'}")


def test_play_bots_plays_duels_that_verify(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    assert manage(database, "migrate", "--no-input", "-v0").returncode == 0

    played = manage(database, "play_bots", "--variant", "duel", "--games", "2", "--bots",
                    "greedy", "random")  # fmt: skip

    assert played.returncode == 0, played.stdout + played.stderr
    assert "2/2 finished" in played.stdout
    verified = manage(database, "verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "2 game(s) replayed, 0 with differences" in verified.stdout
    variants = (
        "from games.models import Game; print(sorted({g.variant for g in Game.objects.all()}))"
    )
    stored = manage(database, "shell", "-c", variants)
    assert stored.stdout.strip().splitlines()[-1] == "['duel']"


def test_play_bots_refuses_a_duel_for_three(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    assert manage(database, "migrate", "--no-input", "-v0").returncode == 0

    played = manage(database, "play_bots", "--variant", "duel", "--bots", "greedy", "random",
                    "random")  # fmt: skip

    assert played.returncode != 0
    assert "give 2 bot levels for duel, one per seat" in played.stderr


def database_url(user: str, password: str | None, host: str, database: str) -> str:
    return f"postgres://{user}{f':{password}' if password else ''}@{host}/{database}"


@pytest.fixture
def fresh_postgres_database() -> Iterator[tuple[str, str | None]]:
    """A new database and the URLs to reach it: the site's, and the owner's when the suite runs
    with a separate owner role (which then creates the database and migrates it)."""
    server = settings.DATABASES["default"]
    owner = settings.DATABASE_OWNER or {"USER": server.get("USER"), "PASSWORD": None}
    params = {
        "host": server.get("HOST") or "127.0.0.1",
        "port": server.get("PORT") or 5432,
        "user": owner["USER"] or "postgres",
        "password": owner["PASSWORD"] or server.get("PASSWORD") or None,
    }
    database = f"splendor_it_play_bots_{os.getpid()}"
    name = sql.Identifier(database)
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(name))
    host = f"{params['host']}:{params['port']}"
    site = database_url(server.get("USER") or "postgres", server.get("PASSWORD"), host, database)
    owner_url = (
        database_url(params["user"], params["password"], host, database)
        if settings.DATABASE_OWNER
        else None
    )
    yield site, owner_url
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(name))


@pytest.mark.postgres
def test_play_bots_plays_three_games_in_process_on_postgresql(
    fresh_postgres_database: tuple[str, str | None],
) -> None:
    assert_plays_three_games_that_verify(*fresh_postgres_database)
