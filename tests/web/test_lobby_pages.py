"""The lobby, creating games, the waiting room, joining, invites, bots, leaving."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from games.models import Game, Seat
from games.vocabulary import Status
from games.web.forms import game_id_from_invite, invite_token
from tests.web.tables import create_game

pytestmark = pytest.mark.django_db


def seats_of(game: Game) -> list[tuple[str | None, str]]:
    return [
        (seat.user.username if seat.user else None, seat.bot_level)
        for seat in Seat.objects.filter(game=game).select_related("user").order_by("index")
    ]


def messages_in(page: str) -> str:
    return html.unescape(" ".join(re.findall(r'class="notice[^"]*"[^>]*>([^<]*)<', page)))


# Home and lobby -------------------------------------------------------------------------------


def test_home_offers_a_guest_to_sign_up_and_to_watch(client: Client) -> None:
    page = client.get("/").text

    assert 'href="/accounts/signup/"' in page
    assert 'href="/lobby/"' in page


def test_home_offers_a_player_a_quick_game_against_a_bot(alice_client: Client) -> None:
    page = alice_client.get("/").text

    assert 'name="seat_1" value="bot:greedy"' in page


def test_lobby_lists_my_games_with_whose_turn_it_is(
    alice_client: Client, bob_client: Client, two_player_game: Game
) -> None:
    mine = alice_client.get("/lobby/").text
    theirs = bob_client.get("/lobby/").text

    assert "Your turn" in mine
    assert f'href="/games/{two_player_game.pk}/"' in mine
    assert "alice to play" in theirs


def test_lobby_lists_open_public_games_with_a_join_button(alice: User, bob_client: Client) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice)
    hidden = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)

    page = bob_client.get("/lobby/").text

    assert f'action="/games/{game.pk}/join/"' in page
    assert f"/games/{hidden.pk}/" not in page


def test_guests_see_the_lobby_and_public_games_being_played(
    client: Client, two_player_game: Game
) -> None:
    lobby = client.get("/lobby/")
    game_page = client.get(f"/games/{two_player_game.pk}/")

    assert lobby.status_code == 200
    assert f'href="/games/{two_player_game.pk}/"' in lobby.text
    assert game_page.status_code == 200
    assert "spectating" in game_page.text
    assert "take-form" not in game_page.text


# Creating a game ------------------------------------------------------------------------------


def test_new_game_form_offers_each_bot_level_with_its_description(alice_client: Client) -> None:
    page = alice_client.get("/games/new/").text

    for level in ("random", "greedy", "search", "expert"):
        assert f'value="bot:{level}"' in page
    assert "Greedy — one-move lookahead" in page


def test_creating_a_game_against_a_bot_starts_it_at_once(alice: User, alice_client: Client) -> None:
    response = alice_client.post("/games/new/", {"seat_1": "bot:greedy", "is_public": "on"})

    game = Game.objects.get()
    assert response.status_code == 303
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.status == Status.ACTIVE
    assert seats_of(game) == [("alice", ""), (None, "greedy")]


def test_creating_a_four_seat_game_with_an_invited_player_an_open_seat_and_a_bot(
    alice_client: Client, bob: User
) -> None:
    response = alice_client.post(
        "/games/new/",
        {"seat_1": "user", "username_1": "bob", "seat_2": "open", "seat_3": "bot:random"},
    )

    game = Game.objects.get()
    assert response.status_code == 303
    assert game.status == Status.WAITING
    assert not game.is_public
    assert seats_of(game) == [("alice", ""), ("bob", ""), (None, ""), (None, "random")]


def test_inviting_an_unknown_player_is_refused_with_a_message(alice_client: Client) -> None:
    response = alice_client.post("/games/new/", {"seat_1": "user", "username_1": "nobody"})

    assert response.status_code == 400
    assert "There is no player &#x27;nobody&#x27;." in response.text
    assert not Game.objects.exists()


def test_a_game_needs_a_second_seat(alice_client: Client) -> None:
    response = alice_client.post("/games/new/", {"seat_1": "", "is_public": "on"})

    assert response.status_code == 400
    assert "a game has 2 to 4 players" in response.text
    assert not Game.objects.exists()


def test_a_forged_bot_level_is_refused(alice_client: Client) -> None:
    response = alice_client.post("/games/new/", {"seat_1": "bot:cheater"})

    assert response.status_code == 400
    assert not Game.objects.exists()


def test_creating_a_game_needs_a_login(client: Client) -> None:
    response = client.post("/games/new/", {"seat_1": "bot:greedy"})

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Game.objects.exists()


# The waiting room -----------------------------------------------------------------------------


@pytest.fixture
def waiting_game(alice: User) -> Game:
    return create_game(UserSeat(alice), OpenSeat(), OpenSeat(), creator=alice)


def test_the_waiting_room_shows_the_invite_link_to_its_players(
    alice_client: Client, bob_client: Client, waiting_game: Game
) -> None:
    mine = alice_client.get(f"/games/{waiting_game.pk}/").text
    theirs = bob_client.get(f"/games/{waiting_game.pk}/").text

    # The token carries the second it was signed, so read it from the page rather than sign one.
    invite = re.search(r"/invite/([^/\"]+)/", mine)
    assert invite is not None
    assert game_id_from_invite(invite.group(1)) == waiting_game.pk
    assert "/invite/" not in theirs
    assert "Sit here" in theirs


def test_joining_a_public_game_from_the_lobby_takes_a_seat(
    bob_client: Client, waiting_game: Game
) -> None:
    response = bob_client.post(f"/games/{waiting_game.pk}/join/", {"seat": "2"})

    assert response.status_code == 303
    assert seats_of(waiting_game)[2] == ("bob", "")


def test_joining_a_forged_seat_is_refused_and_changes_nothing(
    bob_client: Client, waiting_game: Game
) -> None:
    response = bob_client.post(f"/games/{waiting_game.pk}/join/", {"seat": "7"}, follow=True)

    assert "This game has no seat 7." in messages_in(response.text)
    assert seats_of(waiting_game) == [("alice", ""), (None, ""), (None, "")]


def test_a_private_game_cannot_be_joined_without_its_invite_link(
    alice: User, bob_client: Client
) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)

    response = bob_client.post(f"/games/{game.pk}/join/", follow=True)

    # Without the link the game does not exist for bob (tests/web/test_private_games_stay_hidden).
    assert response.status_code == 404
    assert f"There is no game {game.pk}." in response.text
    assert seats_of(game) == [("alice", ""), (None, "")]
    assert bob_client.get(f"/games/{game.pk}/").status_code == 404


def test_the_invite_link_lets_a_logged_in_player_into_a_private_game(
    alice: User, bob_client: Client
) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)
    link = f"/invite/{invite_token(game.pk)}/"

    page = bob_client.get(link)
    joined = bob_client.post(link)

    assert "Take a seat" in page.text
    assert joined.status_code == 303
    assert joined["Location"] == f"/games/{game.pk}/"
    assert Game.objects.get(pk=game.pk).status == Status.ACTIVE


def test_the_invite_link_asks_a_guest_to_log_in_first(alice: User, client: Client) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)
    link = f"/invite/{invite_token(game.pk)}/"

    page = client.get(link).text
    posted = client.post(link)

    assert f"/accounts/login/?next={quote(link)}" in page
    assert posted["Location"].startswith("/accounts/login/")
    assert seats_of(game)[1] == (None, "")


def test_a_forged_invite_link_is_not_found(alice: User, bob_client: Client) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)
    forged = invite_token(game.pk)[:-2] + "xx"

    assert bob_client.get(f"/invite/{forged}/").status_code == 404
    assert bob_client.post(f"/invite/{forged}/").status_code == 404
    assert seats_of(game)[1] == (None, "")


def test_a_player_leaves_before_the_start(
    alice: User, bob: User, bob_client: Client, waiting_game: Game
) -> None:
    bob_client.post(f"/games/{waiting_game.pk}/join/")

    response = bob_client.post(f"/games/{waiting_game.pk}/leave/")

    assert response.status_code == 303
    assert seats_of(waiting_game)[1] == (None, "")


def test_the_creator_adds_a_bot_and_the_game_starts_when_full(
    alice: User, alice_client: Client
) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice)

    response = alice_client.post(f"/games/{game.pk}/bots/", {"level": "search", "seat": "1"})

    assert response.status_code == 303
    assert seats_of(game)[1] == (None, "search")
    assert Game.objects.get(pk=game.pk).status == Status.ACTIVE


def test_a_stranger_cannot_add_a_bot(bob_client: Client, waiting_game: Game) -> None:
    response = bob_client.post(f"/games/{waiting_game.pk}/bots/", {"level": "greedy"}, follow=True)

    assert "Only the game's creator or a seated player" in messages_in(response.text)
    assert seats_of(waiting_game)[1:] == [(None, ""), (None, "")]


def test_the_creator_calls_the_game_off(alice_client: Client, waiting_game: Game) -> None:
    response = alice_client.post(f"/games/{waiting_game.pk}/cancel/")

    assert response.status_code == 303
    assert Game.objects.get(pk=waiting_game.pk).status == Status.ABORTED
    page = alice_client.get(f"/games/{waiting_game.pk}/").text
    assert "This game was called off." in page


def test_a_game_that_does_not_exist_is_a_404(alice_client: Client) -> None:
    assert alice_client.get("/games/999/").status_code == 404
    take = {
        "kind": "take_gems",
        "gems": ["red"],
        "expected_version": 1,
        "idempotency_key": "k" * 16,
    }
    assert alice_client.post("/games/999/act/", take).status_code == 404
    assert alice_client.get("/games/999/version").status_code == 404


def test_a_bot_game_is_shown_with_the_bot_named_honestly(alice: User, alice_client: Client) -> None:
    game = create_game(UserSeat(alice), BotSeat("random"), creator=alice)

    page = alice_client.get(f"/games/{game.pk}/").text

    assert "Random bot" in page


def test_past_the_cap_on_games_the_new_game_page_says_so_and_creates_nothing(
    alice: User, alice_client: Client, settings: Any
) -> None:
    settings.GAMES_MAX_ACTIVE_PER_ACCOUNT = 1
    alice_client.post("/games/new/", {"seat_1": "bot:greedy", "is_public": "on"})

    response = alice_client.post(
        "/games/new/", {"seat_1": "bot:greedy", "is_public": "on"}, follow=True
    )

    assert Game.objects.count() == 1
    assert "You have 1 games waiting or in progress" in response.content.decode()
