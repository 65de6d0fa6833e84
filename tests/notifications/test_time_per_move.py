"""Choosing a time per move at creation (page and API), and the cap on such games per player."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.commands import lobby
from games.commands.lobby import OpenSeat, UserSeat
from games.errors import LimitReached
from games.models import Game
from games.vocabulary import Status
from tests.notifications.conftest import client_for

pytestmark = pytest.mark.django_db


def api_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_creates_a_game_with_a_day_per_move(alice: User) -> None:
    response = api_client(alice).post(
        "/api/v1/games/",
        {"seats": [{"type": "user"}, {"type": "open"}], "move_seconds": 86400},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["move_seconds"] == 86400
    assert response.json()["turn_deadline"] is None  # not started yet
    assert Game.objects.get().move_seconds == 86400


@pytest.mark.parametrize("value", [60, "86400", 0, -3600, True])
def test_the_api_refuses_any_other_time_per_move(alice: User, value: Any) -> None:
    response = api_client(alice).post(
        "/api/v1/games/",
        {"seats": [{"type": "user"}, {"type": "open"}], "move_seconds": value},
        format="json",
    )

    assert response.status_code == 400
    assert not Game.objects.exists()


def test_no_time_per_move_is_the_default(alice: User) -> None:
    response = api_client(alice).post(
        "/api/v1/games/", {"seats": [{"type": "user"}, {"type": "bot", "level": "greedy"}]},
        format="json",
    )  # fmt: skip

    assert response.json()["move_seconds"] is None
    assert response.json()["turn_deadline"] is None


def test_the_new_game_page_offers_the_times_per_move(alice: User, bob: User) -> None:
    client = client_for(alice)
    assert "3 days per move" in client.get("/games/new/").text

    response = client.post(
        "/games/new/",
        {"seat_1": "user", "username_1": "bob", "move_seconds": "3600", "is_public": "on"},
    )

    assert response.status_code == 303
    game = Game.objects.get()
    assert game.move_seconds == 3600
    assert game.turn_deadline is not None


def test_a_player_may_have_only_so_many_games_with_deadlines(
    alice: User, bob: User, settings: Any
) -> None:
    settings.MAX_DEADLINE_GAMES_PER_USER = 2
    for _ in range(2):
        lobby.game_create(variant="splendor", seats=[UserSeat(alice), OpenSeat()],
                          created_by=alice, move_seconds=3600)  # fmt: skip

    with pytest.raises(LimitReached, match="alice already has 2 games with a time per move"):
        lobby.game_create(variant="splendor", seats=[UserSeat(bob), UserSeat(alice)],
                          created_by=bob, move_seconds=86400)  # fmt: skip
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), OpenSeat()],
                      created_by=alice)  # without deadlines: no limit  # fmt: skip
    assert Game.objects.filter(move_seconds__isnull=False).count() == 2


def test_the_cap_holds_when_joining_and_frees_up_when_a_game_ends(
    alice: User, bob: User, settings: Any
) -> None:
    settings.MAX_DEADLINE_GAMES_PER_USER = 1
    mine = lobby.game_create(variant="splendor", seats=[UserSeat(alice), OpenSeat()],
                             created_by=alice, move_seconds=3600)  # fmt: skip
    theirs = lobby.game_create(variant="splendor", seats=[UserSeat(bob), OpenSeat()],
                               created_by=bob, move_seconds=3600)  # fmt: skip

    response = client_for(alice).post(f"/games/{theirs.pk}/join/", {"seat": "1"}, follow=True)
    assert "alice already has 1 games with a time per move" in response.text

    lobby.game_abort(game_id=mine.pk, by_user=alice)
    lobby.game_take_seat(game_id=theirs.pk, user=alice)
    assert Game.objects.get(pk=theirs.pk).status == Status.ACTIVE
