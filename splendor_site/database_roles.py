"""Two PostgreSQL roles: an owner that runs the migrations, an application role that does not.

The site connects with ``DATABASE_URL``. In production that names the application role, which
owns nothing: it cannot alter a table, so it cannot switch the event log's triggers off, and it
is no superuser, so it cannot set ``session_replication_role`` either. ``DATABASE_OWNER_URL``
names the role that owns the tables; ``manage.py migrate`` connects with it (see
``games/management/commands/migrate.py``) and then grants the application role what the site
needs. Without ``DATABASE_OWNER_URL`` one role does everything, as in the quick start.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

# Credentials a connection had before ``as_owner`` switched it, by alias.
_app_credentials: dict[str, tuple[Any, Any]] = {}


def has_separate_owner(connection: BaseDatabaseWrapper) -> bool:
    return connection.vendor == "postgresql" and settings.DATABASE_OWNER is not None


@contextmanager
def as_owner(connection: BaseDatabaseWrapper) -> Iterator[str]:
    """Run the block connected as the owner role; yields the application role's name.

    Without a separate owner this changes nothing. Nested uses share the outer switch.
    """
    if not has_separate_owner(connection) or connection.alias in _app_credentials:
        yield application_role(connection)
        return
    owner = settings.DATABASE_OWNER
    _app_credentials[connection.alias] = _switch(connection, owner["USER"], owner["PASSWORD"])
    try:
        yield application_role(connection)
    finally:
        _switch(connection, *_app_credentials.pop(connection.alias))


def application_role(connection: BaseDatabaseWrapper) -> str:
    saved = _app_credentials.get(connection.alias)
    return str(saved[0] if saved else connection.settings_dict["USER"])


@contextmanager
def as_application(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Inside ``as_owner``, run the block as the application role again."""
    credentials = _app_credentials.pop(connection.alias, None)
    if credentials is None:
        yield
        return
    owner = _switch(connection, *credentials)
    try:
        yield
    finally:
        _app_credentials[connection.alias] = _switch(connection, *owner)


def _switch(connection: BaseDatabaseWrapper, user: Any, password: Any) -> tuple[Any, Any]:
    """Reconnect as ``user``; returns the credentials used until now."""
    before = (connection.settings_dict["USER"], connection.settings_dict["PASSWORD"])
    connection.close()
    connection.settings_dict["USER"] = user
    connection.settings_dict["PASSWORD"] = password
    return before


# What the application role may do: read and write rows, never change the schema. The event
# log's triggers refuse UPDATE, DELETE and TRUNCATE for every role; it gets no TRUNCATE on
# anything, and may only read the record of applied migrations.
GRANTS = """
GRANT USAGE ON SCHEMA public TO {role};
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role};
REVOKE INSERT, UPDATE, DELETE ON django_migrations FROM {role};
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role};
"""


def grant_application_privileges(connection: BaseDatabaseWrapper, role: str) -> None:
    """As the owner, let ``role`` use every table the migrations made (run after each migrate)."""
    quoted = connection.ops.quote_name(role)
    with connection.cursor() as cursor:
        cursor.execute(GRANTS.format(role=quoted))
