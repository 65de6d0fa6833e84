"""Playing from mail alone: mail arrives over real SMTP, its link is followed, the player acts.

The mail server is aiosmtpd on loopback and mail goes out through Django's SMTP backend; tasks
run in-process after commit, as in the quick start. Players act through the API with their
session (the link leads them there), never looking at the game page, and leave once their turn
is done: an API client is present only ``API_PRESENCE_SECONDS`` (shortened here), so each
absence brings its one mail.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import engine, variants
from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent
from games.vocabulary import Status
from tests.notifications.conftest import Mail, SmtpInbox, client_for

pytestmark = pytest.mark.django_db(transaction=True)

API_PRESENCE_SECONDS = 0.2


@pytest.fixture(autouse=True)
def api_clients_leave_soon(settings: Any) -> None:
    settings.API_PRESENCE_SECONDS = API_PRESENCE_SECONDS


def leave() -> None:
    """The player is done for now: their API presence lapses."""
    time.sleep(API_PRESENCE_SECONDS * 1.5)


ONE_DAY = 24 * 3600


def day_game(alice: User, bob: User, *, seed: int = 11) -> Game:
    game = lobby.game_create(
        variant="splendor",
        seats=[UserSeat(alice), UserSeat(bob)],
        created_by=bob,  # bob invites alice, who moves first: she is not looking yet
        seed=seed,
        move_seconds=ONE_DAY,
    )
    return Game.objects.get(pk=game.pk)


def follow(client: Client, mail: Mail) -> int:
    """Follow the mail's link as its reader; returns the game id it leads to."""
    response = client.get(mail.game_link_path)
    assert response.status_code == 302, response.content
    location = response["Location"]
    assert location.startswith("/games/")
    return int(location.split("/")[2])


def act_greedily(client: Client, game_id: int) -> dict[str, object]:
    """One action through the API, chosen by the greedy bot from what the API shows."""
    game = client.get(f"/api/v1/games/{game_id}/").json()
    action = engine.action_to_json(
        variants.choose_bot_action("greedy", game["state"], seed=game["version"])
    )
    response = client.post(
        f"/api/v1/games/{game_id}/actions/",
        action,
        content_type="application/json",
        HTTP_IF_MATCH=f'"{game["version"]}"',
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_a_turn_mail_arrives_over_smtp_and_its_link_lets_the_player_act(
    alice: User, bob: User, smtp_inbox: SmtpInbox
) -> None:
    game = day_game(alice, bob)

    [first] = smtp_inbox.wait_for(1)  # the game started: alice (seat 0) is to move
    assert first.to == ["alice@example.com"]
    assert first.message["Subject"] == f"Your move in game #{game.pk} against bob"
    assert "It is due" in first.text
    assert "Play your move" in first.html
    assert (
        first.message["List-Unsubscribe"].strip().startswith("<http://testserver/mail/unsubscribe/")
    )
    assert first.message["List-Unsubscribe-Post"].strip() == "List-Unsubscribe=One-Click"

    alice_client = client_for(alice)
    assert follow(alice_client, first) == game.pk
    act_greedily(alice_client, game.pk)
    leave()

    [_, second] = smtp_inbox.wait_for(2)
    assert second.to == ["bob@example.com"]
    assert "Since your last turn:" in second.text
    last = GameEvent.objects.filter(game=game, kind="ActionTaken").latest("seq")
    assert f"alice {last.payload['action']['type']}" not in second.text  # words, not JSON
    assert (
        "alice took" in second.text
        or "alice reserved" in second.text
        or "alice bought" in second.text
    )
    assert follow(client_for(bob), second) == game.pk


def test_a_game_between_two_humans_is_played_to_the_end_from_the_mails_alone(
    alice: User, bob: User, smtp_inbox: SmtpInbox
) -> None:
    game = day_game(alice, bob, seed=5)
    clients = {"alice@example.com": client_for(alice), "bob@example.com": client_for(bob)}
    read = 0
    for _turn in range(200):
        game.refresh_from_db()
        if game.status != Status.ACTIVE:
            break
        mails = smtp_inbox.wait_for(read + 1)
        mail = mails[read]
        read += 1
        [reader] = mail.to
        client = clients[reader]
        game_id = follow(client, mail)
        # The turn may hold follow-up decisions (tokens to give back, a noble to choose),
        # which come without a mail of their own.
        while True:
            act_greedily(client, game_id)
            view = client.get(f"/api/v1/games/{game_id}/").json()
            if not view["legal_actions"]:
                break
        leave()
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert game.result is not None
    assert game.result["ended_by"] == "reached_points"
    # One mail per turn of each player, and never two for the same turn.
    assert len(smtp_inbox.mails) == read
    turns = GameEvent.objects.filter(game=game, kind="ActionTaken").count()
    assert read <= turns
