"""Shared test setup.

Tests that need an outside service carry a marker (`postgres`, `redis`, `browser`). When the
service is missing they skip with the reason on a developer's machine, and fail when the CI
environment variable is set, so CI cannot pass by skipping what it is meant to exercise.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import TransactionTestCase

from splendor_site import database_roles


def is_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


@functools.cache
def postgres_problem() -> str | None:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not point at PostgreSQL"
    import psycopg

    try:
        # Django creates the test database from the "postgres" database, so that is the one
        # that must be reachable.
        psycopg.connect(
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        return f"PostgreSQL is not reachable: {error}"
    return None


@functools.cache
def redis_problem() -> str | None:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return "REDIS_URL is not set"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis at {url} is not reachable: {error}"
    return None


@functools.cache
def browser_problem() -> str | None:
    executable = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", "/usr/bin/chromium")
    if shutil.which(executable) is None:
        return f"Chromium not found at {executable} (set PLAYWRIGHT_CHROMIUM_EXECUTABLE)"
    return None


SERVICE_CHECKS: dict[str, Callable[[], str | None]] = {
    "postgres": postgres_problem,
    "redis": redis_problem,
    "browser": browser_problem,
}


def pytest_configure(config: pytest.Config) -> None:
    # The browser tests import the ASGI entry point, which starts the server's periodic jobs
    # when there is no broker: never in a test run (tests start a scheduler of their own).
    settings.PERIODIC_JOBS_IN_PROCESS = False


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers():
        check = SERVICE_CHECKS.get(marker.name)
        problem = check() if check else None
        if problem is None:
            continue
        if is_ci():
            pytest.fail(f"{marker.name} test cannot run in CI: {problem}", pytrace=False)
        pytest.skip(f"needs {marker.name}: {problem}")


@pytest.fixture(autouse=True)
def no_presence_left_in_redis() -> None:
    """Presence marks live in Redis, which outlives the test database: a test's game ids may be
    an earlier test's, so each test starts with nobody present."""
    if os.environ.get("REDIS_URL") and redis_problem() is None:
        from testing.presence import forget_presence_marks

        forget_presence_marks()


# Database roles ---------------------------------------------------------------------------------
#
# With DATABASE_OWNER_URL set (CI does), the owner role creates, migrates and drops the test
# database, and the tests themselves run as the application role of DATABASE_URL, as the site
# does in production. See docs/decisions/0053-tests-as-the-application-role.md.


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> Iterator[None]:
    """Create and drop the test database as the owner (pytest-django's setup runs inside)."""
    with database_roles.as_owner(connection):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """Once the test database is migrated (and its privileges granted), test as the app role.

    Processes the tests start (workers, writers) are the site: they connect to the test
    database as the application role and get no owner, whose URL names another database.
    """
    owner_url = os.environ.pop("DATABASE_OWNER_URL", None)
    try:
        with database_roles.as_application(connection):
            yield
    finally:
        if owner_url is not None:
            os.environ["DATABASE_OWNER_URL"] = owner_url


_flush_test_database = TransactionTestCase._fixture_teardown


def _flush_test_database_as_owner(self: TransactionTestCase) -> None:
    """Empty the tables after a transactional test, the event log included.

    The event log refuses TRUNCATE from every role; only its owner can lift that, so the flush
    of this throwaway database runs as the owner with the trigger switched off meanwhile.
    """
    if connection.vendor != "postgresql":
        _flush_test_database(self)
        return
    with database_roles.as_owner(connection), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_gameevent_no_truncate")
        try:
            _flush_test_database(self)
        finally:
            cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_gameevent_no_truncate")


TransactionTestCase._fixture_teardown = _flush_test_database_as_owner  # type: ignore[method-assign]


# Players ----------------------------------------------------------------------------------------


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    """Creates users; a test folder needing passwords or emails overrides it in its conftest."""

    def make(username: str, **extra: Any) -> User:
        return User.objects.create_user(username=username, password=None, **extra)

    return make


@pytest.fixture
def alice(make_user: Callable[..., User]) -> User:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Callable[..., User]) -> User:
    return make_user("bob")


@pytest.fixture
def carol(make_user: Callable[..., User]) -> User:
    return make_user("carol")
