"""Joins racing for the seats of one game, over the API on a real PostgreSQL: each seat is taken
once, the game starts once full, and every request that lost is told why with a 409."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.commands import lobby
from games.models import Game, GameEvent, Seat
from games.vocabulary import Status
from tests import races
from tests.api.helpers import error_code, game_url
from tests.games.helpers import assert_consistent

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEATS, RACERS, RUNS = 3, 20, 20


@pytest.fixture(autouse=True)
def room_for_many_games(settings: Any) -> None:
    """Each racer may end up seated in a game of every run: the account caps are not raced."""
    settings.GAMES_MAX_ACTIVE_PER_ACCOUNT = 10 * RUNS


def open_game(seats: int = SEATS) -> Game:
    return lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * seats, created_by=None)


def join_all_at_once(game: Game, clients: list[APIClient]) -> list[Any]:
    return races.all_at_once(
        lambda index: clients[index].post(game_url(game, "join/"), {}, format="json"),
        len(clients),
    )


def seat_events(game: Game) -> list[tuple[int, int]]:
    """(seat, user) of each SeatTaken event, in the log's order."""
    return [
        (payload["seat"], payload["user"])
        for payload in GameEvent.objects.filter(game=game, kind="SeatTaken")
        .order_by("seq")
        .values_list("payload", flat=True)
    ]


def test_twenty_users_racing_for_three_seats_take_each_seat_once(
    make_user: Callable[..., User], client_for: Callable[[User], APIClient]
) -> None:
    racers = [make_user(f"racer{index}") for index in range(RACERS)]
    clients = [client_for(racer) for racer in racers]
    refusals: Counter[str] = Counter()
    events = 0

    for _run in range(RUNS):
        game = open_game()

        responses = join_all_at_once(game, clients)

        crashes = [response for response in responses if isinstance(response, Exception)]
        assert not crashes, crashes[:2]
        statuses = Counter(response.status_code for response in responses)
        assert statuses == {200: SEATS, 409: RACERS - SEATS}
        refusals.update(error_code(r) for r in responses if r.status_code == 409)
        taken = seat_events(game)
        events += len(taken)
        assert sorted(seat for seat, _ in taken) == list(range(SEATS))
        winners = {racers[index].pk for index, r in enumerate(responses) if r.status_code == 200}
        assert {user for _, user in taken} == winners
        game.refresh_from_db()
        assert game.status == Status.ACTIVE
        assert set(Seat.objects.filter(game=game).values_list("user_id", flat=True)) == winners
        assert_consistent(game)

    assert events == SEATS * RUNS
    assert refusals == {"seat_taken": (RACERS - SEATS) * RUNS}
    print(f"\n{RUNS} runs of {RACERS} joins for {SEATS} seats: {events} SeatTaken events, "
          f"409s by code {dict(refusals)}")  # fmt: skip


def test_one_user_joining_five_times_at_once_takes_one_seat(
    bob: User, client_for: Callable[[User], APIClient]
) -> None:
    clients = [client_for(bob) for _ in range(5)]
    refusals: Counter[str] = Counter()

    for _run in range(RUNS):
        game = open_game()

        responses = join_all_at_once(game, clients)

        crashes = [response for response in responses if isinstance(response, Exception)]
        assert not crashes, crashes[:2]
        assert sorted(response.status_code for response in responses) == [200] + [409] * 4
        refusals.update(error_code(r) for r in responses if r.status_code == 409)
        assert [user for _, user in seat_events(game)] == [bob.pk]
        assert_consistent(game)

    assert refusals == {"already_seated": 4 * RUNS}
