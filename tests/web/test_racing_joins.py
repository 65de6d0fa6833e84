"""Players racing for the seats of one game through the site's join form and its invite link,
on a real PostgreSQL: each seat is taken once, and each player who lost the race is told so on
the page they come back to."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands import lobby
from games.models import Game, GameEvent
from games.vocabulary import Status
from games.web.forms import invite_token
from tests import races
from tests.games.helpers import assert_consistent
from tests.web.conftest import client_for
from tests.web.test_lobby_pages import messages_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEATS, RACERS, RUNS = 3, 20, 5
EVERY_SEAT_TAKEN = "Every seat in this game is taken."
GAME_STARTED = "Every seat is taken: you can only join a game that has not started."
ALREADY_SEATED = "You already have a seat in this game."


@pytest.fixture(autouse=True)
def room_for_many_games(settings: Any) -> None:
    settings.GAMES_MAX_ACTIVE_PER_ACCOUNT = 10 * RUNS


def open_game(*, is_public: bool = True) -> Game:
    return lobby.game_create(
        variant="splendor",
        seats=[lobby.OpenSeat()] * SEATS,
        created_by=None,
        is_public=is_public,
    )


def join_url(game: Game) -> str:
    return f"/games/{game.pk}/join/"


def invite_url(game: Game) -> str:
    return f"/invite/{invite_token(game.pk)}/"


def post_all_at_once(url: str, clients: list[Client]) -> list[Any]:
    """Each client posts to ``url`` and follows the redirect to the page it is sent back to."""
    return races.all_at_once(lambda index: clients[index].post(url, follow=True), len(clients))


def seat_takers(game: Game) -> list[tuple[int, int]]:
    return sorted(
        (payload["seat"], payload["user"])
        for payload in GameEvent.objects.filter(game=game, kind="SeatTaken").values_list(
            "payload", flat=True
        )
    )


def told(pages: list[Any]) -> Counter[str]:
    """The refusal each page shows ("" for none), counted."""
    crashes = [page for page in pages if isinstance(page, Exception)]
    assert not crashes, crashes[:2]
    assert {page.status_code for page in pages} == {200}
    return Counter(messages_in(page.text) for page in pages)


@pytest.mark.parametrize(
    ("url_of", "is_public"), [(join_url, True), (invite_url, False)], ids=["form", "invite"]
)
def test_players_racing_for_three_seats_take_each_seat_once(
    make_user: Callable[..., User], url_of: Callable[[Game], str], is_public: bool
) -> None:
    racers = [make_user(f"racer{index}") for index in range(RACERS)]
    clients = [client_for(racer) for racer in racers]

    for _run in range(RUNS):
        game = open_game(is_public=is_public)

        pages = post_all_at_once(url_of(game), clients)

        messages = told(pages)
        assert messages[""] == SEATS
        assert messages[EVERY_SEAT_TAKEN] + messages[GAME_STARTED] == RACERS - SEATS
        won = [not messages_in(page.text) for page in pages]
        winners = {racer.pk for racer, did in zip(racers, won, strict=True) if did}
        taken = seat_takers(game)
        assert [seat for seat, _ in taken] == list(range(SEATS))
        assert {user for _, user in taken} == winners
        assert Game.objects.get(pk=game.pk).status == Status.ACTIVE
        assert_consistent(game)


@pytest.mark.parametrize(
    ("url_of", "is_public"), [(join_url, True), (invite_url, False)], ids=["form", "invite"]
)
def test_one_player_posting_five_times_at_once_takes_one_seat(
    bob: User, url_of: Callable[[Game], str], is_public: bool
) -> None:
    clients = [client_for(bob) for _ in range(5)]

    for _run in range(RUNS):
        game = open_game(is_public=is_public)

        pages = post_all_at_once(url_of(game), clients)

        assert told(pages) == {"": 1, ALREADY_SEATED: 4}
        assert [user for _, user in seat_takers(game)] == [bob.pk]
        assert_consistent(game)
