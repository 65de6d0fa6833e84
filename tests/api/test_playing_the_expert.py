"""A game against the Expert bot over the API, in either game: created with its level, played to
its end, each of the Expert's turns through the bot-turn task as every bot's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import tasks
from games.models import GameEvent
from tests.api.helpers import game_url, post_action

MAX_ACTIONS = 400
EXPERT = 1


@pytest.fixture(autouse=True)
def quick_bots(settings: Any) -> None:
    # The bots' thinking time per move, as the site's setting gives it to the task: the least,
    # since the Expert's strength is the benchmarks' to measure, not the test run's.
    settings.BOT_SEARCH_SECONDS = 0.01


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_a_game_against_the_expert_is_created_and_played_to_its_end(
    as_alice: APIClient, variant: str
) -> None:
    response = as_alice.post(
        "/api/v1/games/",
        {"variant": variant, "seats": [{"type": "user"}, {"type": "bot", "level": "expert"}]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    game = response.json()
    assert game["status"] == "active"
    assert [(seat["display_name"], seat["bot_level"]) for seat in game["seats"]] == [
        ("alice", None),
        ("Expert bot", "expert"),
    ]

    rng = random.Random(5)
    for _ in range(MAX_ACTIONS):
        game = as_alice.get(game_url(game["id"])).json()
        if game["status"] != "active":
            break
        if game["legal_actions"]:
            move = post_action(
                as_alice, game["id"], rng.choice(game["legal_actions"]), version=game["version"]
            )
            assert move.status_code == 200, move.json()
        else:
            assert tasks.play_bot_turn(game["id"], game["version"]) == "played"

    assert game["status"] == "finished"
    assert game["result"] is not None
    moves = GameEvent.objects.filter(game_id=game["id"], kind="ActionTaken")
    assert moves.filter(seat=EXPERT).count() >= 10


def test_the_expert_takes_an_open_seat_and_the_game_starts(as_alice: APIClient) -> None:
    created = as_alice.post(
        "/api/v1/games/",
        {"variant": "duel", "seats": [{"type": "user"}, {"type": "open"}]},
        format="json",
    ).json()

    response = as_alice.post(game_url(created["id"], "bots/"), {"level": "expert"}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "active"
    assert response.json()["seats"][1]["bot_level"] == "expert"
