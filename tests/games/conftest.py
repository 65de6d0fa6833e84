"""Fixtures for the event store tests: a few users and games made through the services."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from games.commands import after_commit, lobby
from games.commands.lobby import UserSeat
from games.models import Game
from games.vocabulary import Status

SEED = 20240611


@pytest.fixture
def staff(make_user: Callable[..., User]) -> User:
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture(autouse=True)
def after_commit_hooks(monkeypatch: pytest.MonkeyPatch) -> list[after_commit.Hook]:
    """A fresh, empty hook registry for each test: no test's hook leaks into another, and the
    project's own hooks (bot turns) do not play moves behind a test's back."""
    hooks: list[after_commit.Hook] = []
    monkeypatch.setattr(after_commit, "_hooks", hooks)
    return hooks


@pytest.fixture
def started_game(alice: User, bob: User, after_commit_hooks: list[object]) -> Game:
    """A public two-player game, alice in seat 0 and bob in seat 1, started with ``SEED``."""
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=SEED
    )
    assert game.status == Status.ACTIVE
    return game
