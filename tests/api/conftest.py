"""Fixtures for the API tests: users with tokens, clients that send them, games made over HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import services as account_services
from games.commands import after_commit, lobby
from games.models import Game


@pytest.fixture(autouse=True)
def fresh_throttle_counts() -> Iterator[None]:
    """Throttle counters live in the cache and user ids repeat between tests: start clean."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def no_follow_ups(monkeypatch: pytest.MonkeyPatch) -> None:
    """No bot turns or emails after commit unless a test asks for them (they have own tests)."""
    monkeypatch.setattr(after_commit, "_hooks", [])


@pytest.fixture
def client_for() -> Callable[[User], APIClient]:
    """An API client that sends a fresh personal token of ``user``."""

    def make(user: User) -> APIClient:
        _token, raw_token = account_services.token_create(user, "tests")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
        return client

    return make


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def as_alice(alice: User, client_for: Callable[[User], APIClient]) -> APIClient:
    return client_for(alice)


@pytest.fixture
def as_bob(bob: User, client_for: Callable[[User], APIClient]) -> APIClient:
    return client_for(bob)


@pytest.fixture
def as_carol(carol: User, client_for: Callable[[User], APIClient]) -> APIClient:
    return client_for(carol)


@pytest.fixture
def started_game(alice: User, bob: User) -> Game:
    """A public two-player game, alice in seat 0 (to act first) and bob in seat 1."""
    return lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(alice), lobby.UserSeat(bob)],
        created_by=alice,
        seed=20240611,
    )


@pytest.fixture
def private_game(alice: User, bob: User) -> Game:
    """A private game of alice and bob: carol must not even learn that it exists."""
    return lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(alice), lobby.UserSeat(bob)],
        created_by=alice,
        is_public=False,
        seed=7,
    )
