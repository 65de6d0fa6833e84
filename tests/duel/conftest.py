"""Fixtures of the Splendor Duel web tests: API clients and a player's side of the table."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import services as account_services
from games.commands import after_commit


@pytest.fixture(autouse=True)
def fresh_throttle_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def no_follow_ups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot turns are played by the tests themselves, one task call at a time."""
    monkeypatch.setattr(after_commit, "_hooks", [])


@pytest.fixture
def api_client_for() -> Callable[[User], APIClient]:
    def make(user: User) -> APIClient:
        _token, raw_token = account_services.token_create(user, "tests")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
        return client

    return make
