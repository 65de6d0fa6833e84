"""One-click unsubscribe: a page with one button, and RFC 8058's POST without a visit."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.test import Client
from django.urls import resolve

from accounts.models import Profile
from accounts.selectors import profile_for
from games.commands import lobby
from games.commands.lobby import UserSeat
from notifications import links

# Mail goes out after commit, so the tests commit (transaction=True), as requests do.
pytestmark = pytest.mark.django_db(transaction=True)


def unsubscribe_path(user: User) -> str:
    return urlsplit(links.unsubscribe_url(user.pk)).path


def test_every_mail_carries_the_one_click_headers(alice: User, bob: User) -> None:
    # bob invites alice, who moves first: she is not looking at the game yet
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                      created_by=bob)  # fmt: skip

    [turn_mail] = django_mail.outbox
    # The link is signed with the time it was made, so it is read back rather than remade.
    url = turn_mail.extra_headers["List-Unsubscribe"].removeprefix("<").removesuffix(">")
    token = resolve(urlsplit(url).path).kwargs["token"]
    assert links.read_unsubscribe(token) == alice.pk
    assert turn_mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in turn_mail.body


def test_a_mail_client_unsubscribes_with_one_post_and_no_visit(alice: User) -> None:
    # What RFC 8058 clients send: a POST with this body, no cookie, no CSRF token.
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        unsubscribe_path(alice),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert profile_for(alice).notify == Profile.Notify.NONE


def test_the_page_shows_one_button_and_only_the_button_unsubscribes(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)

    page = client.get(unsubscribe_path(alice))

    assert page.status_code == 200
    assert page.text.count("<button") == 1  # signed out: no log-out button either
    assert profile_for(alice).notify == Profile.Notify.EVERY_TURN  # a visit changes nothing
    done = client.post(unsubscribe_path(alice))
    assert "You will get no more mail" in done.text
    assert profile_for(alice).notify == Profile.Notify.NONE


def test_an_unsubscribed_player_gets_no_turn_mail(alice: User, bob: User) -> None:
    Client().post(unsubscribe_path(alice))

    # bob invites alice, who moves first: she is not looking at the game yet
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                      created_by=bob)  # fmt: skip

    assert django_mail.outbox == []


def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(alice: User) -> None:
    path = unsubscribe_path(alice)
    forged = path.replace(path.split("/")[3], path.split("/")[3][:-3] + "xyz")

    response = Client().post(forged)

    assert response.status_code == 400
    assert profile_for(alice).notify == Profile.Notify.EVERY_TURN
