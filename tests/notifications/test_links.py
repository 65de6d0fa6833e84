"""Links in mail: signed for one player, game and version; a GET never changes anything."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.test import Client

from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent
from games.reads import game_view
from notifications import links
from tests.notifications.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=3
    )


def link_path(user: User, game: Game, version: int | None = None) -> str:
    token = links.game_link_token(
        user_id=user.pk, game_id=game.pk, version=game.version if version is None else version
    )
    return f"/mail/game/{token}/"


def footprint(game: Game) -> tuple[int, int, int]:
    return (
        Game.objects.get(pk=game.pk).version,
        GameEvent.objects.filter(game=game).count(),
        len(django_mail.outbox),
    )


def test_a_signed_in_player_lands_on_the_game(alice: User, game: Game) -> None:
    before = footprint(game)

    response = client_for(alice).get(link_path(alice, game))

    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert footprint(game) == before


def test_a_signed_out_reader_goes_through_the_sign_in_page_and_back(
    alice: User, game: Game
) -> None:
    client = Client()
    path = link_path(alice, game)

    first = client.get(path)
    assert first.status_code == 302
    assert first["Location"].startswith("/accounts/login/?next=/mail/game/")
    assert "_auth_user_id" not in client.session  # the link signs no one in
    sign_in_page = client.get(first["Location"]).text
    assert "The game from your mail waits behind sign-in" in sign_in_page
    assert f'name="next" value="{path}"' in sign_in_page
    wrong = client.post(
        "/accounts/login/", {"username": "alice", "password": "wrong", "next": path}
    )
    assert "The game from your mail waits behind sign-in" in wrong.text  # still said

    signed_in = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD, "next": path}
    )
    assert signed_in["Location"] == path
    assert client.get(path)["Location"] == f"/games/{game.pk}/"


def test_the_plain_sign_in_page_says_nothing_of_mail(client: Client) -> None:
    for page in ("/accounts/login/", "/accounts/login/?next=/lobby/", "/accounts/login/?next=x"):
        assert "from your mail" not in client.get(page).text


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        lambda token: token.replace(token.split(":")[0], token.split(":")[0][::-1]),
        lambda token: "not-a-token",
        lambda token: token.split(":")[0],
    ],
    ids=["signature", "payload", "garbage", "unsigned"],
)
def test_a_tampered_link_gets_a_clear_page_and_changes_nothing(
    alice: User, game: Game, tamper: Any
) -> None:
    token = links.game_link_token(user_id=alice.pk, game_id=game.pk, version=game.version)
    before = footprint(game)

    response = client_for(alice).get(f"/mail/game/{tamper(token)}/")

    assert response.status_code == 400
    assert "This link is not valid" in response.text
    assert "Nothing was changed." in response.text
    assert footprint(game) == before


def test_an_expired_link_says_so(alice: User, game: Game, settings: Any) -> None:
    path = link_path(alice, game)
    settings.MAIL_LINK_MAX_AGE = -1  # any link is older than that
    before = footprint(game)

    response = client_for(alice).get(path)

    assert response.status_code == 410
    assert "This link has expired" in response.text
    assert footprint(game) == before


def test_a_link_works_for_seven_days(alice: User, game: Game, settings: Any) -> None:
    assert settings.MAIL_LINK_MAX_AGE == 7 * 24 * 3600


def test_another_players_link_is_refused(alice: User, bob: User, game: Game) -> None:
    before = footprint(game)

    response = client_for(bob).get(link_path(alice, game))

    assert response.status_code == 403
    assert "sent to another player" in response.text
    assert "signed in as bob" in response.text
    assert footprint(game) == before


def test_a_replayed_link_opens_the_game_again_and_changes_nothing(alice: User, game: Game) -> None:
    client = client_for(alice)
    path = link_path(alice, game)
    before = footprint(game)

    answers = [client.get(path) for _ in range(3)]

    assert [answer["Location"] for answer in answers] == [f"/games/{game.pk}/"] * 3
    assert footprint(game) == before


def test_a_link_the_game_has_moved_past_opens_the_game_saying_what_happened(
    alice: User, bob: User, game: Game
) -> None:
    path = link_path(bob, game)  # bob's link at the start; then alice moves
    legal = game_view.game_legal_actions_for_viewer(game, alice)
    take = next(action for action in legal if action["type"] == "take_gems")
    play.game_take_action(game_id=game.pk, action=take, expected_version=game.version, user=alice)

    page = client_for(bob).get(path, follow=True)

    assert page.status_code == 200
    assert page.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert "Since that mail: alice took " in page.text
