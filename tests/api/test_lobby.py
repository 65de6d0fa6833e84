"""The lobby over HTTP: join, leave, add a bot, start, resign."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.commands import lobby
from games.models import Game
from tests.api.helpers import error_code, footprint, game_url


@pytest.fixture
def open_game(alice: User) -> Game:
    """Alice waits in seat 0 of a three-seat game; seats 1 and 2 are open."""
    return lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(alice), lobby.OpenSeat(), lobby.OpenSeat()],
        created_by=alice,
    )


def test_joining_takes_the_first_open_seat(open_game: Game, as_bob: APIClient) -> None:
    response = as_bob.post(game_url(open_game, "join/"), {}, format="json")

    assert response.status_code == 200
    assert response.json()["viewer_seat"] == 1
    assert response["ETag"] == f'"{open_game.version + 1}"'


def test_joining_a_chosen_seat(open_game: Game, as_bob: APIClient) -> None:
    response = as_bob.post(game_url(open_game, "join/"), {"seat": 2}, format="json")

    assert response.json()["viewer_seat"] == 2


def test_joining_twice_or_a_taken_seat_is_409(
    open_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    before = footprint(open_game)

    twice = as_alice.post(game_url(open_game, "join/"), {}, format="json")
    taken = as_bob.post(game_url(open_game, "join/"), {"seat": 0}, format="json")

    assert (twice.status_code, taken.status_code) == (409, 409)
    assert (error_code(twice), error_code(taken)) == ("already_seated", "seat_taken")
    assert footprint(open_game) == before


@pytest.mark.parametrize("body", [{"seat": "1"}, {"seat": 9}, {"seat": -1}, {"chair": 1}])
def test_a_bad_join_request_is_400(open_game: Game, as_bob: APIClient, body: object) -> None:
    response = as_bob.post(game_url(open_game, "join/"), body, format="json")

    assert response.status_code == 400
    assert error_code(response) == "validation_error"


def test_the_last_seat_taken_starts_the_game(open_game: Game, as_bob: APIClient,
                                             as_carol: APIClient) -> None:  # fmt: skip
    as_bob.post(game_url(open_game, "join/"), {}, format="json")

    response = as_carol.post(game_url(open_game, "join/"), {}, format="json")

    assert response.json()["status"] == "active"
    assert response.json()["state"]["viewer"] == 2


def test_leaving_gives_the_seat_back(open_game: Game, as_bob: APIClient) -> None:
    as_bob.post(game_url(open_game, "join/"), {}, format="json")

    response = as_bob.post(game_url(open_game, "leave/"))

    assert response.status_code == 200
    assert response.json()["viewer_seat"] is None
    assert response.json()["seats"][1]["is_open"] is True


def test_leaving_a_game_one_is_not_in_is_403(open_game: Game, as_bob: APIClient) -> None:
    response = as_bob.post(game_url(open_game, "leave/"))

    assert response.status_code == 403


def test_the_creator_adds_a_bot(open_game: Game, as_alice: APIClient) -> None:
    response = as_alice.post(game_url(open_game, "bots/"), {"level": "greedy"}, format="json")

    assert response.status_code == 200
    assert response.json()["seats"][1]["bot_level"] == "greedy"


def test_a_stranger_cannot_add_a_bot(open_game: Game, as_bob: APIClient) -> None:
    before = footprint(open_game)

    response = as_bob.post(game_url(open_game, "bots/"), {"level": "random"}, format="json")

    assert response.status_code == 403
    assert footprint(open_game) == before


def test_an_unknown_bot_level_is_400(open_game: Game, as_alice: APIClient) -> None:
    response = as_alice.post(game_url(open_game, "bots/"), {"level": "godlike"}, format="json")

    assert response.status_code == 400
    assert "level" in response.json()["error"]["details"]["fields"]


def test_starting_needs_every_seat_filled(open_game: Game, as_alice: APIClient) -> None:
    response = as_alice.post(game_url(open_game, "start/"))

    assert response.status_code == 409
    assert error_code(response) == "invalid_request"


def test_only_the_creator_or_a_player_may_start(open_game: Game, as_bob: APIClient) -> None:
    response = as_bob.post(game_url(open_game, "start/"))

    assert response.status_code == 403


def test_resigning_ends_the_game(started_game: Game, as_bob: APIClient) -> None:
    response = as_bob.post(game_url(started_game, "resign/"))

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished"
    assert body["result"]["resigned"] == [1]
    assert body["result"]["winners"] == [0]
    assert "revealed" in body


def test_resigning_a_game_one_does_not_play_is_403(started_game: Game, as_carol: APIClient) -> None:
    before = footprint(started_game)

    response = as_carol.post(game_url(started_game, "resign/"))

    assert response.status_code == 403
    assert footprint(started_game) == before
