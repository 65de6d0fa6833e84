"""Splendor Duel through the REST API: created with ``variant: "duel"``, played to its end."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import tasks
from games.commands import play
from games.models import Game
from tests.api.helpers import error_code, footprint
from tests.api.test_hidden_information import Viewer, check_every_view, choose

MAX_ACTIONS = 400


def create_duel(client: APIClient, second_seat: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games/",
        {"variant": "duel", "seats": [{"type": "user"}, second_seat]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body: dict[str, Any] = response.json()
    return body


def act(client: APIClient, game: dict[str, Any], action: dict[str, Any]) -> Any:
    return client.post(
        f"/api/v1/games/{game['id']}/actions/",
        action,
        format="json",
        headers={"If-Match": f'"{game["version"]}"'},
    )


def test_a_duel_is_created_for_exactly_two_with_the_duel_board(
    alice: User, api_client_for: Callable[[User], APIClient]
) -> None:
    body = create_duel(api_client_for(alice), {"type": "bot", "level": "random"})

    assert body["variant"] == "duel"
    assert body["status"] == "active"
    assert len(body["state"]["board"]) == 5
    assert all(len(row) == 5 for row in body["state"]["board"])


def test_a_duel_for_three_is_refused(
    alice: User, api_client_for: Callable[[User], APIClient]
) -> None:
    response = api_client_for(alice).post(
        "/api/v1/games/",
        {"variant": "duel", "seats": [{"type": "user"}, {"type": "open"}, {"type": "open"}]},
        format="json",
    )

    # As every refusal the schema cannot express (a second seat of yours): 409, with the reason.
    assert response.status_code == 409
    assert error_code(response) == "invalid_request"
    assert "played by 2 players" in response.json()["error"]["message"]
    assert Game.objects.count() == 0


def test_a_base_game_action_is_refused_in_a_duel_and_changes_nothing(
    alice: User, api_client_for: Callable[[User], APIClient]
) -> None:
    client = api_client_for(alice)
    game = create_duel(client, {"type": "bot", "level": "random"})
    # The bot may move first, and a Duel turn can give it another (a card's "play again").
    for _ in range(MAX_ACTIONS):
        if game["legal_actions"]:
            break
        assert tasks.play_bot_turn(game["id"], game["version"]) == "played"
        game = client.get(f"/api/v1/games/{game['id']}/").json()
    assert game["state"]["current"] == 0
    assert game["legal_actions"]
    before = footprint(game["id"])

    base_game_move = act(client, game, {"type": "take_gems", "gems": ["red", "blue", "green"]})
    assert base_game_move.status_code == 400
    assert error_code(base_game_move) == "illegal_action"
    for bad in ({"type": "take_tokens", "spaces": [[9, 9]]}, {"type": "take_tokens"}):
        response = act(client, game, bad)
        assert response.status_code == 400, bad
        assert error_code(response) == "validation_error"

    assert footprint(game["id"]) == before


@pytest.mark.parametrize(
    "numbers_no_duel_has",
    [
        {"type": "buy_card", "card": 43, "payment": {"red": 1389496}},
        {"type": "buy_card", "card": 90},
        {"type": "reserve_card", "card": -1},
        {"type": "reserve_from_deck", "level": 4},
        {"type": "choose_royal", "royal": 4},
    ],
)
def test_numbers_no_duel_has_are_refused_as_malformed_even_at_an_old_version(
    alice: User, api_client_for: Callable[[User], APIClient], numbers_no_duel_has: dict[str, Any]
) -> None:
    # A body the schema refuses is a 400 whatever the If-Match: its shape is read before the
    # version is compared (a card number no card has, a level above 3, more tokens than the game).
    client = api_client_for(alice)
    game = create_duel(client, {"type": "bot", "level": "random"})
    before = footprint(game["id"])

    for version in (game["version"], game["version"] - 1):
        response = act(client, {**game, "version": version}, numbers_no_duel_has)
        assert response.status_code == 400, (version, response.json())
        assert error_code(response) == "validation_error"

    assert footprint(game["id"]) == before


def test_a_duel_against_a_bot_is_played_to_its_end_over_the_api(
    alice: User, api_client_for: Callable[[User], APIClient]
) -> None:
    client = api_client_for(alice)
    game = create_duel(client, {"type": "bot", "level": "greedy"})
    rng = random.Random(7)
    for _ in range(MAX_ACTIONS):
        game = client.get(f"/api/v1/games/{game['id']}/").json()
        if game["status"] != "active":
            break
        if game["legal_actions"]:
            response = act(client, game, rng.choice(game["legal_actions"]))
            assert response.status_code == 200, response.json()
        else:
            assert tasks.play_bot_turn(game["id"], game["version"]) == "played"

    assert game["status"] == "finished"
    assert game["result"] is not None


def test_two_people_play_a_duel_to_its_end_over_the_api(
    alice: User, bob: User, api_client_for: Callable[[User], APIClient]
) -> None:
    clients = [api_client_for(alice), api_client_for(bob)]
    game = create_duel(clients[0], {"type": "open"})
    joined = clients[1].post(f"/api/v1/games/{game['id']}/join/", {}, format="json")
    assert joined.status_code in (200, 201), joined.json()
    rng = random.Random(3)
    for _ in range(MAX_ACTIONS):
        game = clients[0].get(f"/api/v1/games/{game['id']}/").json()
        if game["status"] != "active":
            break
        seat = game["state"]["current"]
        mine = clients[seat].get(f"/api/v1/games/{game['id']}/").json()
        response = act(clients[seat], mine, rng.choice(mine["legal_actions"]))
        assert response.status_code == 200, response.json()

    assert game["status"] == "finished"


@pytest.mark.slow
def test_no_duel_answer_reveals_hidden_cards_the_bag_or_the_seed(
    alice: User, bob: User, api_client_for: Callable[[User], APIClient]
) -> None:
    """Blind reserves are forced often; each viewer reads everything after every action."""
    clients = [api_client_for(alice), api_client_for(bob)]
    game = create_duel(clients[0], {"type": "open"})
    assert (
        clients[1].post(f"/api/v1/games/{game['id']}/join/", {}, format="json").status_code == 200
    )
    record = Game.objects.get(pk=game["id"])
    viewers = [Viewer(f"seat {seat}", client, seat) for seat, client in enumerate(clients)]
    viewers.append(Viewer("anonymous", APIClient(), None))
    rng = random.Random(5)
    for step in range(MAX_ACTIONS):
        record.refresh_from_db()
        if record.status != "active":
            break
        check_every_view(record, viewers, step)
        seat = record.acting_seat
        assert seat is not None
        legal = clients[seat].get(f"/api/v1/games/{record.pk}/legal-actions/").json()
        response = act(clients[seat], {"id": record.pk, "version": legal["version"]},
                       choose(legal["actions"], rng))  # fmt: skip
        assert response.status_code == 200, response.json()

    assert record.status == "finished"


def test_a_finished_duel_is_counted_in_the_statistics(
    alice: User, api_client_for: Callable[[User], APIClient]
) -> None:
    """A Duel played through the API and resigned is counted once, and rebuilt from its log."""
    from analytics import projections

    client = api_client_for(alice)
    game = create_duel(client, {"type": "bot", "level": "random"})
    record = Game.objects.get(pk=game["id"])
    play.game_resign(game_id=record.pk, user=alice)
    record.refresh_from_db()

    assert record.pk in projections.uncounted_finished_games(100)
    assert projections.count_game(record.pk) == "counted"
    assert projections.count_game(record.pk) == "already counted"
    assert record.pk not in projections.uncounted_finished_games(100)
    assert projections.rebuild() == 1
