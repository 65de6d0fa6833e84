"""The Expert bot on the site, in either game: offered by the new-game form and the waiting room,
and replying to a player's move as every bot does, right after the move is committed."""

from __future__ import annotations

import html
import re
import secrets
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import OpenSeat, UserSeat
from games.models import Game, GameEvent
from tests.web.tables import create_game
from tests.web.test_lobby_pages import seats_of

EXPERT = 1
ACTION_BUTTON = re.compile(r'name="action" value="([^"]*)"')


@pytest.fixture(autouse=True)
def quick_bots(settings: Any) -> None:
    # The bots' thinking time per move (the site's setting): the least, for a quick test run.
    settings.BOT_SEARCH_SECONDS = 0.01


def expert_moves(game: Game) -> int:
    return GameEvent.objects.filter(game=game, kind="ActionTaken", seat=EXPERT).count()


def a_move_from_the_page(game: Game, page: str) -> dict[str, Any]:
    """What alice's page posts for one of her moves: a Duel page's first action button; the base
    game's take of three gems (she opens the game, with every gem in the bank)."""
    version = re.search(r'name="expected_version" value="(\d+)"', page)
    assert version is not None
    fields = {"expected_version": version.group(1), "idempotency_key": secrets.token_hex(8)}
    if game.variant == "duel":
        return {**fields, "action": html.unescape(ACTION_BUTTON.findall(page)[0])}
    return {**fields, "kind": "take_gems", "gems": ["white", "blue", "green"]}


def test_the_new_game_form_and_the_waiting_room_offer_the_expert(
    alice: User, alice_client: Client
) -> None:
    waiting = create_game(UserSeat(alice), OpenSeat(), creator=alice)
    new_game = alice_client.get("/games/new/").text
    waiting_room = alice_client.get(f"/games/{waiting.pk}/").text

    assert 'value="bot:expert"' in new_game
    assert 'value="expert"' in waiting_room
    for page in (new_game, waiting_room):
        assert "Expert bot" in page
        assert "Expert — the Search bot's search in the same thinking time, judging" in (
            html.unescape(page)
        )


# The bots' turns are queued after commit: these tests commit for real, as the site does.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_a_game_against_the_expert_from_the_new_game_form_gets_its_replies(
    alice_client: Client, variant: str
) -> None:
    response = alice_client.post(
        "/games/new/", {"variant": variant, "seat_1": "bot:expert", "is_public": "on"}
    )

    game = Game.objects.get()
    assert response.status_code == 303
    assert seats_of(game) == [("alice", ""), (None, "expert")]
    # A Duel's first player is drawn: the Expert may already have opened it.
    for _ in range(10):
        if expert_moves(game):
            break
        page = alice_client.get(f"/games/{game.pk}/").text
        moved = alice_client.post(f"/games/{game.pk}/act/", a_move_from_the_page(game, page))
        assert moved.status_code == 303, moved.content
    game.refresh_from_db()
    assert expert_moves(game) >= 1
    assert (game.status, game.acting_seat) == ("active", 0)
    page = alice_client.get(f"/games/{game.pk}/").text
    assert "Expert bot" in page
    assert "Your turn" in page
