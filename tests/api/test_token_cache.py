"""Token authentication is remembered per process for a few seconds, and revocation still holds.

``API_TOKEN_CACHE_SECONDS`` bounds how long another process may go on accepting a token that was
revoked (or whose user was deactivated); in the process that revokes it, it is refused at once.
Another process is played here by changing the rows behind the cache's back.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts import token_cache
from accounts.models import ApiToken

pytestmark = pytest.mark.django_db


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock()
    monkeypatch.setattr(token_cache, "clock", fake)
    token_cache.clear()
    yield fake
    token_cache.clear()


def bearer(raw_token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    return client


def token_lookups(raw_token: str) -> int:
    """How many times authenticating ``raw_token`` read the token table."""
    with CaptureQueriesContext(connection) as queries:
        assert account_services.token_authenticate(raw_token) is not None
    return sum(
        query["sql"].startswith("SELECT") and "accounts_apitoken" in query["sql"]
        for query in queries.captured_queries
    )


def test_a_token_is_looked_up_once_then_remembered(alice: User, clock: Clock) -> None:
    _token, raw = account_services.token_create(alice, "bot")

    assert token_lookups(raw) == 1
    assert token_lookups(raw) == 0
    clock.now += 4.9
    assert token_lookups(raw) == 0
    clock.now += 0.2
    assert token_lookups(raw) == 1


def test_a_token_revoked_by_another_process_is_refused_once_the_entry_expires(
    alice: User, clock: Clock, settings: object
) -> None:
    token, raw = account_services.token_create(alice, "bot")
    client = bearer(raw)
    assert client.get("/api/v1/profile/").status_code == 200
    # Another process revokes it: this one's cache is not told.
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())

    clock.now += 4.9
    accepted_within_the_window = client.get("/api/v1/profile/").status_code
    clock.now += 0.2
    refused_after_it = client.get("/api/v1/profile/").status_code

    assert accepted_within_the_window == 200
    assert refused_after_it == 401


def test_a_token_revoked_in_this_process_is_refused_at_once(alice: User, clock: Clock) -> None:
    token, raw = account_services.token_create(alice, "bot")
    client = bearer(raw)
    assert client.get("/api/v1/profile/").status_code == 200

    account_services.token_revoke(token.pk, alice)

    assert client.get("/api/v1/profile/").status_code == 401


def test_deactivating_a_user_refuses_their_remembered_token_at_once(
    alice: User, clock: Clock
) -> None:
    _token, raw = account_services.token_create(alice, "bot")
    client = bearer(raw)
    assert client.get("/api/v1/profile/").status_code == 200

    alice.is_active = False
    alice.save()

    assert client.get("/api/v1/profile/").status_code == 401


def test_zero_seconds_turns_the_cache_off(alice: User, clock: Clock, settings: object) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 0  # type: ignore[attr-defined]
    _token, raw = account_services.token_create(alice, "bot")

    assert token_lookups(raw) == 1
    assert token_lookups(raw) == 1
