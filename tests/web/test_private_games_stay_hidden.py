"""A private game of others does not exist for the pages' POST endpoints either: each answers
exactly as for a game id never used, whatever was posted, and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Max
from django.test import Client

from games.commands.lobby import OpenSeat, UserSeat
from games.models import Game, GameEvent
from tests.web.tables import create_game

ENDPOINTS = ("join", "leave", "bots", "cancel", "resign", "act")

FORMS: dict[str, list[dict[str, Any]]] = {
    "join": [{}, {"seat": "1"}, {"seat": "banana"}],
    "leave": [{}],
    "bots": [{"level": "greedy"}, {"level": "nonsense"}],
    "cancel": [{}],
    "resign": [{}],
    "act": [
        {"kind": "pass", "idempotency_key": "carol-probe-1"},
        {"kind": "take_gems", "gems": ["white", "blue", "green"], "idempotency_key": "probe-2"},
        {"kind": "nonsense"},
    ],
}

_MAIN = re.compile(r"<main.*</main>", re.DOTALL)


def answer(
    client: Client, game_id: int, endpoint: str, form: dict[str, Any], **headers: str
) -> tuple[int, str | None, str | None, str]:
    """What the caller learns: status, redirect, htmx refresh, and the page's main part (the
    game's id written as <id>; the rest of the page holds per-request CSRF tokens)."""
    response = client.post(f"/games/{game_id}/{endpoint}/", form, headers=headers)
    main = _MAIN.search(response.text)
    body = re.sub(rf"\b{game_id}\b", "<id>", main.group(0)) if main else response.text
    location = response.get("Location")
    return response.status_code, location, response.get("HX-Refresh"), body


def footprint() -> tuple[int, int]:
    return Game.objects.count(), GameEvent.objects.count()


@pytest.fixture
def private_games(alice: User, bob: User) -> dict[str, Game]:
    """Alice's private games: one waiting for a player (seats open), one running with bob."""
    return {
        "waiting": create_game(
            UserSeat(alice), OpenSeat(), OpenSeat(), creator=alice, is_public=False
        ),
        "running": create_game(UserSeat(alice), UserSeat(bob), creator=alice, is_public=False),
    }


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("status", ["waiting", "running"])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_private_game_of_others_answers_as_a_game_never_used(
    carol_client: Client, private_games: dict[str, Game], endpoint: str, status: str, htmx: bool
) -> None:
    game = private_games[status]
    never_used = (Game.objects.aggregate(Max("pk"))["pk__max"] or 0) + 1000
    headers = {"HX-Request": "true"} if htmx else {}
    before = footprint()

    for form in FORMS[endpoint]:
        if endpoint == "act":
            forms = [{**form, "expected_version": v} for v in (0, game.version - 1, game.version)]
        else:
            forms = [form]
        for posted in forms:
            hidden = answer(carol_client, game.pk, endpoint, posted, **headers)
            missing = answer(carol_client, never_used, endpoint, posted, **headers)
            assert hidden == missing, posted
            assert hidden[0] == 404, posted

    assert footprint() == before
