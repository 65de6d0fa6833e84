"""Nothing the API sends reveals a hidden card, the seed or the salt while a game runs.

Several games are played through the API by their seated players, with blind reserves forced
often. After every action each viewer (the players, a spectator, an anonymous visitor) reads
the game, its legal actions, the new events, and now and then the list and the export; no
response may name a card that viewer must not see (any card in a deck, any card another player
reserved blind) nor the seed, the deck order or the salt.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game, GameEvent
from games.vocabulary import Status
from tests.api.helpers import game_url, post_action, secret_cards_for
from tests.leaks import card_ids_shown, walk

SECRET_KEYS = {"setup", "salt", "seed"}


class Viewer:
    def __init__(self, name: str, client: APIClient, seat: int | None) -> None:
        self.name = name
        self.client = client
        self.seat = seat
        self.cursor = 0


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Buy when possible, reserve blind often, else anything: short games, many blind cards."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    if "buy_card" in by_type and rng.random() < 0.8:
        return rng.choice(by_type["buy_card"])
    if "reserve_from_deck" in by_type and rng.random() < 0.5:
        return rng.choice(by_type["reserve_from_deck"])
    return rng.choice(actions)


def assert_reveals_nothing_hidden(response: Any, game: Game, viewer: Viewer, what: str) -> None:
    assert response.status_code in (200, 404), (what, response.status_code, response.content)
    body = response.json()
    leaked = card_ids_shown(body) & secret_cards_for(game, viewer.seat)
    assert not leaked, f"{what} shows {viewer.name} hidden cards {sorted(leaked)}"
    keys = {key for key, _value in walk(body) if key is not None}
    assert not keys & SECRET_KEYS, f"{what} shows {viewer.name} {keys & SECRET_KEYS}"
    assert "decks" not in keys or all(
        isinstance(count, int) for count in body.get("state", {}).get("decks", [])
    )
    text = json.dumps(body)
    started = GameEvent.objects.filter(game=game, kind="GameStarted").first()
    if started is not None:
        assert started.payload["salt"] not in text, f"{what} shows {viewer.name} the salt"
        assert json.dumps(started.payload["setup"]["decks"][0][:6])[1:-1] not in text


def check_every_view(game: Game, viewers: list[Viewer], step: int) -> None:
    for viewer in viewers:
        client = viewer.client
        for suffix in ("", "legal-actions/"):
            response = client.get(game_url(game, suffix))
            assert_reveals_nothing_hidden(response, game, viewer, f"GET {suffix or 'game'}")
        news = client.get(game_url(game, f"events/?after={viewer.cursor}&limit=500"))
        assert_reveals_nothing_hidden(news, game, viewer, "new events")
        viewer.cursor = news.json()["cursor"]
        if step % 15 == 0:
            export = client.get(game_url(game, "export/"))
            assert export.status_code == 409  # refused while the game runs
            assert "setup" not in export.text
            listed = client.get("/api/v1/games/")
            assert_reveals_nothing_hidden(listed, game, viewer, "the game list")
            history = client.get(game_url(game, "events/?limit=500"))
            assert_reveals_nothing_hidden(history, game, viewer, "the whole history")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_response_reveals_hidden_cards_or_the_seed(
    players: int,
    make_user: Callable[..., User],
    client_for: Callable[[User], APIClient],
) -> None:
    rng = random.Random(players)
    seated = [client_for(make_user(f"player{index}")) for index in range(players)]
    created = seated[0].post(
        "/api/v1/games/",
        {"seats": [{"type": "user"}] + [{"type": "open"}] * (players - 1)},
        format="json",
    )
    game_id = created.json()["id"]
    for client in seated[1:]:
        assert client.post(game_url(game_id, "join/"), {}, format="json").status_code == 200
    viewers = [Viewer(f"seat {seat}", client, seat) for seat, client in enumerate(seated)]
    viewers += [
        Viewer("a spectator", client_for(make_user("spectator")), None),
        Viewer("an anonymous visitor", APIClient(), None),
    ]
    blind_reserves = steps_with_blind_cards_in_hand = 0

    for step in range(1, 600):
        game = Game.objects.get(pk=game_id)
        if game.status != Status.ACTIVE:
            break
        actor = viewers[game.acting_seat]
        legal = actor.client.get(game_url(game, "legal-actions/")).json()
        action = choose(legal["actions"], rng)
        accepted = post_action(actor.client, game, action, version=legal["version"])
        assert accepted.status_code == 200, accepted.content
        blind_reserves += action["type"] == "reserve_from_deck"
        game = Game.objects.get(pk=game_id)
        if game.status == Status.ACTIVE:
            steps_with_blind_cards_in_hand += secret_cards_for(game, 0) != secret_cards_for(game, 1)
            check_every_view(game, viewers, step)

    game = Game.objects.get(pk=game_id)
    assert game.status == Status.FINISHED, "the game should end within 600 actions"
    assert blind_reserves >= 3, "the test must exercise blind reserves"
    assert steps_with_blind_cards_in_hand >= 10
    export = viewers[-1].client.get(game_url(game, "export/"))
    assert export.status_code == 200
    assert export.json()["game"]["revealed"]["setup"]["decks"]
