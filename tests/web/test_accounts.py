"""Accounts: sign up, log in and out, reset a password by email, the profile and API tokens."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.models import ApiToken, Profile
from accounts.services import token_create
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_signing_up_logs_the_new_player_in_and_opens_the_lobby(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 303
    assert response["Location"] == "/lobby/"
    assert get_user_model().objects.get(username="dora").email == "dora@example.com"
    assert "Welcome, dora!" in client.get("/lobby/").text


def test_signing_up_with_mismatched_passwords_shows_the_error(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "dora", "email": "d@example.com", "password1": PASSWORD, "password2": "x"},
    )

    assert response.status_code == 400
    assert "password fields didn’t match" in response.text
    assert not get_user_model().objects.filter(username="dora").exists()


def test_signing_up_returns_to_the_invite_it_came_from(client: Client) -> None:
    response = client.post(
        "/accounts/signup/?next=/invite/abc/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/invite/abc/",
        },
    )

    assert response["Location"] == "/invite/abc/"


def test_signing_up_never_redirects_off_the_site(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )

    assert response["Location"] == "/lobby/"


def test_logging_in_and_out(alice: User, client: Client) -> None:
    page = client.get("/accounts/login/")
    logged_in = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD, "next": ""}
    )
    home = client.get("/").text
    logged_out = client.post("/accounts/logout/")

    assert 'name="csrfmiddlewaretoken"' in page.text
    assert logged_in["Location"] == "/lobby/"
    assert 'action="/accounts/logout/"' in home
    assert logged_out["Location"] == "/"
    assert "Sign up" in client.get("/").text


def test_a_wrong_password_is_refused(alice: User, client: Client) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.text


def test_resetting_a_password_by_email(alice: User, client: Client) -> None:
    client.post("/accounts/password_reset/", {"email": "alice@example.com"})

    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your Splendor Online password"
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body)
    assert link is not None
    form = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form.text
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "another-long-passphrase", "new_password2": "another-long-passphrase"},
        follow=True,
    )
    assert "Your password is changed" in done.text
    signed_in = client.post(
        "/accounts/login/", {"username": "alice", "password": "another-long-passphrase"}
    )
    assert signed_in.status_code == 302


def test_the_profile_needs_a_login(client: Client) -> None:
    response = client.get("/accounts/profile/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/profile/"


def test_the_profile_saves_the_display_name_and_notification_setting(
    alice: User, alice_client: Client
) -> None:
    page = alice_client.get("/accounts/profile/").text
    response = alice_client.post(
        "/accounts/profile/",
        {
            "display_name": "  Alice A.  ",
            "notify": "daily_digest",
            "digest_hour": "7",
            "time_zone": "America/New_York",
        },
    )

    assert 'name="notify"' in page
    assert 'name="time_zone"' in page
    assert response.status_code == 303
    profile = Profile.objects.get(user=alice)
    assert profile.display_name == "Alice A."
    assert (profile.notify, profile.digest_hour, profile.time_zone) == (
        "daily_digest",
        7,
        "America/New_York",
    )
    assert 'value="Alice A."' in alice_client.get("/accounts/profile/").text


def test_a_display_name_with_control_characters_is_refused(
    alice: User, alice_client: Client
) -> None:
    response = alice_client.post("/accounts/profile/", {"display_name": "bad\x07name"})

    assert response.status_code == 400
    assert "Control characters are not allowed." in response.text
    assert not Profile.objects.filter(user=alice, display_name__contains="bad").exists()


def test_a_new_api_token_is_shown_once(alice: User, alice_client: Client) -> None:
    response = alice_client.post("/accounts/profile/tokens/", {"name": "my bot"})
    first = alice_client.get("/accounts/profile/").text
    second = alice_client.get("/accounts/profile/").text

    assert response.status_code == 303
    shown = re.search(r'value="(spl_[^"]+)"', first)
    assert shown is not None
    assert ApiToken.objects.get(user=alice).name == "my bot"
    assert shown.group(1) not in second
    assert "my bot" in second


def test_revoking_an_api_token(alice: User, alice_client: Client) -> None:
    token, _ = token_create(alice, "old bot")

    response = alice_client.post(f"/accounts/profile/tokens/{token.pk}/revoke/")

    assert response.status_code == 303
    token.refresh_from_db()
    assert not token.is_active
    assert "is revoked" in alice_client.get("/accounts/profile/").text


def test_another_players_token_cannot_be_revoked(bob: User, alice_client: Client) -> None:
    token, _ = token_create(bob, "bob's bot")

    response = alice_client.post(f"/accounts/profile/tokens/{token.pk}/revoke/", follow=True)

    token.refresh_from_db()
    assert token.is_active
    assert f"You have no token {token.pk}." in response.content.decode()


def test_a_token_needs_a_name(alice: User, alice_client: Client) -> None:
    response = alice_client.post("/accounts/profile/tokens/", {"name": ""})

    assert response.status_code == 400
    assert not ApiToken.objects.filter(user=alice).exists()
