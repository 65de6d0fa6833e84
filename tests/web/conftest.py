"""Fixtures for the page tests: players with passwords, their logged-in clients, games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from tests.web.tables import create_game

PASSWORD = "a-long-enough-passphrase"


@pytest.fixture(autouse=True)
def web_test_settings(settings: Any) -> None:
    # Bots move inside the request even when REDIS_URL is set (no worker runs in tests).
    settings.CELERY_TASK_ALWAYS_EAGER = True
    # Hashing each test player's password properly would take most of the suite's time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str, **extra: object) -> User:
        return get_user_model().objects.create_user(  # type: ignore[no-any-return]
            username=username, password=PASSWORD, email=f"{username}@example.com", **extra
        )

    return make


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice_client(alice: User) -> Client:
    return client_for(alice)


@pytest.fixture
def bob_client(bob: User) -> Client:
    return client_for(bob)


@pytest.fixture
def carol_client(carol: User) -> Client:
    return client_for(carol)


@pytest.fixture
def two_player_game(alice: User, bob: User) -> Game:
    """A public two-player game in progress: alice in seat 0 (to play), bob in seat 1."""
    return create_game(UserSeat(alice), UserSeat(bob), creator=alice)


@pytest.fixture
def bot_game(alice: User) -> Game:
    """Alice (seat 0, to play) against the greedy bot."""
    return create_game(UserSeat(alice), BotSeat("greedy"), creator=alice)
