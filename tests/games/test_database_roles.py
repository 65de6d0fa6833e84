"""The site's PostgreSQL role can use the event log but never rewrite it or switch its guards off.

In CI the suite runs as the least-privilege application role (``DATABASE_URL``) beside an owner
role (``DATABASE_OWNER_URL``), so these tests check that very role. Where the suite runs as one
all-powerful role (a developer's superuser), they make a throwaway role with exactly the
privileges ``migrate`` grants the application role, and check that one.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection

from games.models import Game, GameEvent
from splendor_site import database_roles

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def connect(user: str, password: str | None) -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        host=db.get("HOST") or None,
        port=db.get("PORT") or None,
        dbname=db["NAME"],
        user=user,
        password=password or None,
        autocommit=True,
    )


@pytest.fixture
def app_role() -> Iterator[psycopg.Connection]:
    """A connection as the application role: the configured one, or a throwaway twin."""
    if database_roles.has_separate_owner(connection):
        db = connection.settings_dict
        with connect(db["USER"], db.get("PASSWORD")) as app:
            yield app
        return
    name = f"splendor_test_app_{secrets.token_hex(4)}"
    password = secrets.token_hex(16)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {name} LOGIN PASSWORD %s", [password])
    try:
        database_roles.grant_application_privileges(connection, name)
        with connect(name, password) as app:
            yield app
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP OWNED BY {name}")
            cursor.execute(f"DROP ROLE {name}")


def refused(app: psycopg.Connection, sql: str) -> str:
    with pytest.raises(psycopg.Error) as caught:
        app.execute(sql)
    return str(caught.value)


def event_rows(game: Game) -> list[tuple[object, ...]]:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list())


def test_the_app_role_is_no_superuser_and_owns_nothing(app_role: psycopg.Connection) -> None:
    flags = app_role.execute(
        "SELECT rolsuper, rolcreaterole, rolbypassrls, rolreplication FROM pg_roles "
        "WHERE rolname = current_user"
    ).fetchone()
    assert flags == (False, False, False, False)
    owned = app_role.execute(
        "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) = current_user"
    ).fetchone()
    assert owned == (0,)


def test_the_app_role_reads_the_event_log(app_role: psycopg.Connection, started_game: Game) -> None:
    count = app_role.execute(
        "SELECT count(*) FROM games_gameevent WHERE game_id = %s", [started_game.pk]
    ).fetchone()
    assert count == (started_game.version,)


@pytest.mark.parametrize(
    "sql",
    [
        "TRUNCATE games_gameevent",
        "TRUNCATE games_game CASCADE",
        "UPDATE games_gameevent SET kind = 'GameAborted'",
        "DELETE FROM games_gameevent",
    ],
    ids=["truncate", "truncate-cascade", "update", "delete"],
)
def test_the_app_role_cannot_rewrite_or_empty_the_event_log(
    app_role: psycopg.Connection, started_game: Game, sql: str
) -> None:
    before = event_rows(started_game)

    refused(app_role, sql)

    assert event_rows(started_game) == before


@pytest.mark.parametrize(
    "sql",
    [
        "SET session_replication_role = replica",
        "ALTER TABLE games_gameevent DISABLE TRIGGER games_gameevent_append_only",
        "ALTER TABLE games_gameevent DISABLE TRIGGER ALL",
        "DROP TRIGGER games_gameevent_no_truncate ON games_gameevent",
    ],
    ids=["replication-role", "disable-trigger", "disable-all", "drop-trigger"],
)
def test_the_app_role_cannot_switch_the_triggers_off(
    app_role: psycopg.Connection, started_game: Game, sql: str
) -> None:
    message = refused(app_role, sql)

    assert "permission denied" in message or "must be owner" in message
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger "
            "WHERE tgrelid = 'games_gameevent'::regclass AND NOT tgisinternal ORDER BY tgname"
        )
        assert cursor.fetchall() == [
            ("games_gameevent_append_only", "O"),
            ("games_gameevent_no_truncate", "O"),
        ]
