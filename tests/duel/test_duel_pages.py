"""Splendor Duel on the site: created from the new-game form, played to its end on its page.

Every legal action is a button posting the action's JSON, so a test plays exactly as a browser
without JavaScript does. Each page a player reads while the game runs is scanned for what they
must not see: cards in the decks, the opponent's blind reserves, the seed, the salt, the setup.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from games import tasks
from games.commands import lobby
from games.models import Game, GameEvent
from games.reads import game_view
from tests.api.helpers import secret_cards_for

MAX_ACTIONS = 400
ACTION_INPUT = re.compile(r'name="action" value="([^"]*)"')
VERSION_INPUT = re.compile(r'name="expected_version" value="(\d+)"')


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def new_duel(client: Client, **seats: str) -> Any:
    return client.post("/games/new/", {"variant": "duel", "is_public": "on", **seats})


def buttons(page: str) -> list[dict[str, Any]]:
    return [json.loads(html.unescape(value)) for value in ACTION_INPUT.findall(page)]


def play(client: Client, game: Game, page: str, action: dict[str, Any]) -> Any:
    version = VERSION_INPUT.search(page)
    assert version is not None
    return client.post(
        f"/games/{game.pk}/act/",
        {
            "action": json.dumps(action),
            "expected_version": version.group(1),
            "idempotency_key": f"key-{random.getrandbits(48):012x}",
        },
    )


def assert_page_hides_secrets(page: str, game: Game, seat: int | None) -> None:
    text = html.unescape(page)
    shown = {int(card) for card in re.findall(r'data-card="(\d+)"', text)}
    shown |= {int(card) for card in re.findall(r'"card":\s*(\d+)', text)}
    leaked = shown & secret_cards_for(game, seat)
    assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
    started = GameEvent.objects.get(game=game, kind="GameStarted")
    assert started.payload["salt"] not in text
    assert "bag_draws" not in text
    assert json.dumps(started.payload["setup"]["decks"][0][:6])[1:-1] not in text


def test_the_new_game_form_offers_duel_and_starts_one_against_a_bot(alice: User) -> None:
    client = client_for(alice)
    assert "Splendor Duel" in client.get("/games/new/").text

    response = new_duel(client, seat_1="bot:greedy")

    assert response.status_code == 303
    game = Game.objects.get()
    assert (game.variant, game.seat_count, game.status) == ("duel", 2, "active")


def test_a_duel_for_three_is_refused_by_the_form_and_creates_nothing(alice: User) -> None:
    response = new_duel(client_for(alice), seat_1="bot:greedy", seat_2="bot:random")

    assert response.status_code == 400
    assert "Splendor Duel is played by 2 players" in response.text
    assert not Game.objects.exists()


def test_the_duel_page_shows_the_board_pyramid_royals_and_every_legal_action(
    alice: User, bob: User
) -> None:
    client = client_for(alice)
    new_duel(client, seat_1="open")
    game = Game.objects.get()
    lobby.game_take_seat(game_id=game.pk, user=bob)
    game.refresh_from_db()
    seat = game.acting_seat
    player = client_for(alice if seat == 0 else bob)

    page = player.get(f"/games/{game.pk}/").text

    assert page.count('class="duel-space"') == 25
    assert "Level 3" in page
    assert "Royals" in page
    assert "0/20 points" in page
    assert "0/10 crowns" in page
    assert "0/10 points in one colour" in page
    legal = game_view.game_legal_actions_for_viewer(game, alice if seat == 0 else bob)
    assert sorted(map(json.dumps, buttons(page))) == sorted(map(json.dumps, legal))
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "an inline script (CSP)"


def test_a_duel_against_a_bot_is_played_to_its_end_on_its_page(alice: User) -> None:
    client = client_for(alice)
    new_duel(client, seat_1="bot:greedy")
    game = Game.objects.get()
    rng = random.Random(11)
    for _ in range(MAX_ACTIONS):
        game.refresh_from_db()
        if game.status != "active":
            break
        if game.acting_seat != 0:
            assert tasks.play_bot_turn(game.pk, game.version) == "played"
            continue
        page = client.get(f"/games/{game.pk}/").text
        assert_page_hides_secrets(page, game, 0)
        response = play(client, game, page, rng.choice(buttons(page)))
        assert response.status_code == 303, response.content

    assert game.status == "finished"
    page = client.get(f"/games/{game.pk}/").text
    assert "Game over" in page or "wins" in page
    history = client.get(f"/games/{game.pk}/history/").text
    assert "took the token" in history
    # Finished, the game reads back through the shared history pages too.
    replay = client.get(f"/games/{game.pk}/replay/?step=3")
    assert replay.status_code == 200
    assert replay.text.count('class="duel-space"') == 25
    assert "took the token" in client.get(f"/games/{game.pk}/export.txt").text
    assert client.get("/games/mine/").status_code == 200


def test_a_move_that_is_not_duel_json_is_refused_and_changes_nothing(alice: User) -> None:
    client = client_for(alice)
    new_duel(client, seat_1="bot:greedy")
    game = Game.objects.get()
    version = game.version

    for bad in ("not json", '{"type": "take_gems", "gems": ["red"]}', "[1, 2]"):
        response = client.post(
            f"/games/{game.pk}/act/",
            {"action": bad, "expected_version": version, "idempotency_key": "abcdefgh123"},
            follow=True,
        )
        # Without htmx a refused move comes back to the page with the reason on it.
        assert "That move could not be read" in response.text, bad
    htmx = client.post(
        f"/games/{game.pk}/act/",
        {"action": "{}", "expected_version": version, "idempotency_key": "abcdefgh124"},
        HTTP_HX_REQUEST="true",
    )
    assert htmx.status_code == 400

    game.refresh_from_db()
    assert game.version == version
