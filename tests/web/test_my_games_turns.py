"""My games and the lobby answer "whose turn": who is to play, by when, the last move's age,
the viewer's seat and score; My games puts the games waiting for the viewer first and can show
only those."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game


def _running(first: User, second: User, *, move_seconds: int | None = None) -> Game:
    return lobby.game_create(
        variant="splendor",
        seats=[UserSeat(first), UserSeat(second)],
        created_by=first,
        seed=7,
        move_seconds=move_seconds,
    )


def _row(page: str, game: Game) -> str:
    found = re.search(rf'<tr class="history-row[^"]*" data-game="{game.pk}">.*?</tr>', page, re.S)
    assert found is not None, f"no row for game {game.pk}"
    return found.group(0)


@pytest.fixture
def two_games(alice: User, bob: User) -> tuple[Game, Game]:
    """An older game waiting for alice (with a deadline), a newer one waiting for bob."""
    mine = _running(alice, bob, move_seconds=3600)
    theirs = _running(bob, alice)
    assert mine.acting_seat == 0
    assert theirs.acting_seat == 0
    return mine, theirs


def test_my_games_says_whose_turn_by_when_the_last_move_my_seat_and_score(
    alice_client: Client, two_games: tuple[Game, Game]
) -> None:
    mine, theirs = two_games
    page = alice_client.get("/games/mine/").content.decode()
    waiting = _row(page, mine)
    assert "Your turn" in waiting
    assert re.search(r'class="deadline"><time datetime="[^"]+">in 59', waiting)
    assert re.search(r'class="last-move"><time datetime="[^"]+">0.minutes ago', waiting)
    assert "Seat 1" in waiting
    assert "<td>0</td>" in waiting  # the score so far
    other = _row(page, theirs)
    assert "bob to play" in other
    assert "Your turn" not in other
    assert "Seat 2" in other
    assert 'class="deadline">—' in other  # a game without deadlines


def test_my_games_puts_the_games_waiting_for_me_first_and_can_show_only_those(
    alice_client: Client, two_games: tuple[Game, Game]
) -> None:
    mine, theirs = two_games
    page = alice_client.get("/games/mine/").content.decode()
    assert page.index(f'data-game="{mine.pk}"') < page.index(f'data-game="{theirs.pk}"')
    assert 'href="/games/mine/?waiting=me"' in page
    only = alice_client.get("/games/mine/", {"waiting": "me"}).content.decode()
    assert f'data-game="{mine.pk}"' in only
    assert f'data-game="{theirs.pk}"' not in only
    assert 'href="/games/mine/"' in only
    assert '<input type="hidden" name="waiting" value="me">' in only  # kept by the filters
    refused = alice_client.get("/games/mine/", {"waiting": "bob"})
    assert refused.status_code == 400
    assert "waiting" in refused.content.decode()


def test_my_games_reads_a_bounded_number_of_queries_whatever_the_games(
    alice_client: Client, alice: User, bob: User
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            assert alice_client.get("/games/mine/").status_code == 200
        return len(context.captured_queries)

    _running(alice, bob, move_seconds=3600)
    one = queries()
    for _ in range(4):
        _running(bob, alice, move_seconds=3600)
    assert queries() == one


def test_the_lobby_says_by_when_the_last_move_and_my_seat(
    alice_client: Client, two_games: tuple[Game, Game]
) -> None:
    page = alice_client.get("/lobby/").content.decode()
    rows: list[Any] = re.findall(r'<li class="game-row.*?</li>', page, re.S)
    waiting = next(row for row in rows if f"/games/{two_games[0].pk}/" in row)
    assert "Your turn" in waiting
    assert "due in" in waiting
    assert "59" in waiting
    assert "last move" in waiting
    assert "your seat: 1" in waiting
    other = next(row for row in rows if f"/games/{two_games[1].pk}/" in row)
    assert "bob to play" in other
    assert "due in" not in other
    assert "your seat: 2" in other
