"""While PostgreSQL cannot be reached, the site says so (503 with Retry-After: JSON in the
API's error shape, a plain page elsewhere) instead of a server error, and it recovers by itself
once the database is back. A query's own errors stay what they were."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client

from games.models import Game
from splendor_site import outages

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def closed_port() -> int:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def database_away() -> Iterator[None]:
    """The site's connection points at a closed port meanwhile, then at the database again."""
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(closed_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)


def clients(alice: User) -> dict[str, Client]:
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(alice)
    return {"guest": Client(raise_request_exception=False), "alice": signed_in}


@pytest.mark.parametrize("who", ["guest", "alice"])
def test_the_api_answers_503_with_retry_after_and_recovers(
    who: str, alice: User, two_player_game: Game
) -> None:
    client = clients(alice)[who]
    url = f"/api/v1/games/{two_player_game.pk}/"
    assert client.get(url).status_code == 200

    with_database_away = _get_with_database_away(client, url)
    back = client.get(url)

    assert with_database_away.status_code == 503
    assert with_database_away["Retry-After"] == str(outages.RETRY_AFTER_SECONDS)
    assert with_database_away.json()["error"]["code"] == "service_unavailable"
    assert back.status_code == 200


@pytest.mark.parametrize("who", ["guest", "alice"])
def test_a_page_answers_a_plain_503_with_retry_after_and_recovers(
    who: str, alice: User, two_player_game: Game
) -> None:
    client = clients(alice)[who]
    url = f"/games/{two_player_game.pk}/"
    assert client.get(url).status_code == 200

    with_database_away = _get_with_database_away(client, url)
    back = client.get(url)

    assert with_database_away.status_code == 503
    assert with_database_away["Retry-After"] == str(outages.RETRY_AFTER_SECONDS)
    assert "cannot be reached" in with_database_away.text
    assert back.status_code == 200


def _get_with_database_away(client: Client, url: str) -> Any:
    with database_away():
        return client.get(url)


def test_a_query_that_fails_on_its_own_is_not_an_outage() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 1")
        with pytest.raises(OperationalError) as timed_out:
            cursor.execute("SELECT pg_sleep(1)")
    connection.close()

    assert not outages.is_database_unreachable(timed_out.value)
    assert not outages.is_database_unreachable(ValueError("a bug"))


def test_a_refused_connection_is_an_outage() -> None:
    with database_away(), pytest.raises(OperationalError) as refused:
        connection.ensure_connection()

    assert outages.is_database_unreachable(refused.value)
