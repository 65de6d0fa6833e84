"""Fixtures for the analysis tests: finished games of both variants, tasks run in-process, and
a budget small enough to analyse a whole game in a test (the settings then say so)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from analysis import services
from games.commands import after_commit
from games.models import Game
from testing.synthetic import GamePlan, SeatPlan, write_games

ANALYSIS_SEED = 27
TEST_BUDGET_SCALE = 0.02
"""Eight search iterations a position in the base game, one sample in Duel."""


@pytest.fixture(autouse=True)
def analysis_test_settings(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.ANALYSIS_BUDGET_SCALE = TEST_BUDGET_SCALE
    settings.ANALYSIS_REQUESTS_PER_HOUR = 3
    monkeypatch.setattr(after_commit, "_hooks", [])
    # A fixed seed: the tests that look for a marked move find the same ones every run.
    monkeypatch.setattr(services, "new_seed", lambda: ANALYSIS_SEED)
    cache.clear()


@pytest.fixture
def finished_game_of() -> Callable[..., Game]:
    """A finished game between the given users (or bots), of a variant, from a seed."""

    def make(*players: User | str, variant: str = "splendor", seed: int = 5, **plan: Any) -> Game:
        seats = [
            SeatPlan(bot_level=player) if isinstance(player, str) else SeatPlan(user_id=player.pk)
            for player in players
        ]
        (game_id,) = write_games([GamePlan(seats=seats, seed=seed, variant=variant, **plan)])
        return Game.objects.get(pk=game_id)

    return make
