"""Per-account caps: games waiting or in progress, games between bots only, games per hour.

One account must not be able to fill the server: the services refuse past each cap with
``LimitReached`` (HTTP 429, a message that says which cap and what to do) and write nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from games.commands import lobby
from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from games.errors import LimitReached
from games.models import Game
from games.vocabulary import Status

pytestmark = pytest.mark.django_db


@pytest.fixture
def caps(settings: Any) -> Callable[..., None]:
    def set_caps(active: int = 100, bot_only: int = 100, per_hour: int = 100) -> None:
        settings.GAMES_MAX_ACTIVE_PER_ACCOUNT = active
        settings.GAMES_MAX_BOT_ONLY_PER_ACCOUNT = bot_only
        settings.GAMES_MAX_CREATED_PER_HOUR = per_hour

    return set_caps


def open_game(user: User) -> Game:
    return lobby.game_create(variant="splendor", seats=[UserSeat(user), OpenSeat()],
                             created_by=user)  # fmt: skip


def bots_only(user: User | None, seats: int = 4) -> Game:
    return lobby.game_create(variant="splendor", seats=[BotSeat("search")] * seats, created_by=user)


def test_an_account_cannot_have_more_games_waiting_or_in_progress_than_its_cap(
    alice: User, caps: Callable[..., None]
) -> None:
    caps(active=2)
    first = open_game(alice)
    open_game(alice)

    with pytest.raises(LimitReached, match="2 games waiting or in progress"):
        open_game(alice)
    assert Game.objects.count() == 2

    lobby.game_abort(game_id=first.pk, by_user=alice)
    open_game(alice)  # an ended game no longer counts


def test_taking_a_seat_counts_against_the_cap_on_games(
    alice: User, bob: User, carol: User, caps: Callable[..., None]
) -> None:
    caps(active=1)
    open_game(bob)
    carols = open_game(carol)

    with pytest.raises(LimitReached, match="1 games waiting or in progress"):
        lobby.game_take_seat(game_id=carols.pk, user=bob)
    lobby.game_take_seat(game_id=carols.pk, user=alice)
    assert Game.objects.get(pk=carols.pk).status == Status.ACTIVE


def test_an_account_cannot_run_more_games_between_bots_only_than_its_cap(
    alice: User, caps: Callable[..., None]
) -> None:
    caps(bot_only=2)
    bots_only(alice)
    bots_only(alice, seats=2)

    with pytest.raises(LimitReached, match="2 games between bots only"):
        bots_only(alice)
    # A game with a player in it is not a bot-only game.
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), BotSeat("search")],
                      created_by=alice)  # fmt: skip
    assert Game.objects.filter(created_by=alice).count() == 3


def test_filling_a_game_without_players_with_bots_counts_as_a_bot_only_game(
    alice: User, caps: Callable[..., None]
) -> None:
    caps(bot_only=1)
    bots_only(alice)
    waiting = lobby.game_create(variant="splendor", seats=[BotSeat("random"), OpenSeat()],
                                created_by=alice)  # fmt: skip

    with pytest.raises(LimitReached, match="between bots only"):
        lobby.game_add_bot(game_id=waiting.pk, level="search", by_user=alice)
    assert Game.objects.get(pk=waiting.pk).status == Status.WAITING


def test_an_account_cannot_create_more_games_in_an_hour_than_its_cap(
    alice: User, caps: Callable[..., None]
) -> None:
    caps(per_hour=3)
    made = [open_game(alice) for _ in range(3)]
    for game in made:
        lobby.game_abort(game_id=game.pk, by_user=alice)

    with pytest.raises(LimitReached, match="3 games in the last hour"):
        open_game(alice)

    Game.objects.filter(pk=made[0].pk).update(created_at=timezone.now() - timedelta(minutes=61))
    open_game(alice)


def test_games_the_system_makes_are_not_capped(caps: Callable[..., None]) -> None:
    caps(active=1, bot_only=1, per_hour=1)

    for _ in range(3):
        bots_only(None, seats=2)

    assert Game.objects.filter(status=Status.ACTIVE).count() == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_burst_of_parallel_requests_cannot_slip_past_a_cap(
    alice: User, caps: Callable[..., None]
) -> None:
    """The attack that found the gap: many bot-only games from one account at once."""
    caps(bot_only=2)
    start = threading.Barrier(8)
    refusals: list[LimitReached] = []

    def create() -> None:
        try:
            start.wait()
            bots_only(alice)
        except LimitReached as error:
            refusals.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert Game.objects.filter(created_by=alice).count() == 2
    assert len(refusals) == 6
