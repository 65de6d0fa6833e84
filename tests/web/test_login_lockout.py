"""Failed sign-ins are limited per (account, address) pair, and per address when it guesses at
many accounts (django-axes, accounts.lockout): after the limit the sign-in page says so with 429,
even for the right password. A stranger's guesses never lock the owner out where the owner signs
in; a password reset or staff lift the pause."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
LIMIT = settings.AXES_FAILURE_LIMIT
USERNAMES_PER_ADDRESS = settings.LOGIN_ADDRESS_USERNAME_LIMIT


def sign_in(username: str, password: str, address: str = "203.0.113.7", **extra: Any) -> Any:
    return Client().post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **extra
    )


def is_signed_in(response: Any) -> bool:
    return response.status_code == 302 and response["Location"] == "/lobby/"


def is_locked_out(response: Any) -> bool:
    return response.status_code == 429 and "Too many failed sign-ins" in response.text


def test_the_limit_is_a_few_tries_with_a_pause_of_minutes() -> None:
    assert 3 <= LIMIT <= 10
    assert settings.AXES_COOLOFF_TIME.total_seconds() >= 60


def test_a_few_wrong_passwords_only_get_the_usual_error(alice: User) -> None:
    for _ in range(LIMIT - 1):
        response = sign_in("alice", "wrong")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.text

    assert is_signed_in(sign_in("alice", PASSWORD))


def test_too_many_wrong_passwords_lock_the_account_out_with_a_clear_page(alice: User) -> None:
    for _ in range(LIMIT):
        sign_in("alice", "wrong")

    response = sign_in("alice", PASSWORD)

    assert is_locked_out(response)
    assert f"After {LIMIT} wrong passwords" in response.text
    assert response["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    assert "_auth_user_id" not in response.client.session


def test_the_account_is_locked_only_for_the_address_that_guessed(alice: User, bob: User) -> None:
    for _ in range(LIMIT):
        sign_in("alice", "wrong", address="198.51.100.1")

    assert is_locked_out(sign_in("alice", PASSWORD, address="198.51.100.1"))
    assert is_signed_in(sign_in("bob", PASSWORD, address="198.51.100.1"))
    assert is_signed_in(sign_in("alice", PASSWORD, address="192.0.2.99"))


def test_an_attacker_from_many_addresses_cannot_lock_the_victim_out(alice: User) -> None:
    for number in range(3 * LIMIT):
        sign_in("alice", "wrong", address=f"198.51.100.{number // LIMIT}")

    assert is_signed_in(sign_in("alice", PASSWORD, address="192.0.2.99"))


def test_a_few_users_mistyping_behind_one_address_do_not_lock_it(make_user: Any) -> None:
    for number in range(USERNAMES_PER_ADDRESS - 1):
        make_user(f"colleague-{number}")
        sign_in(f"colleague-{number}", "wrong", address="203.0.113.40")

    assert is_signed_in(sign_in("colleague-0", PASSWORD, address="203.0.113.40"))


def test_one_address_guessing_many_accounts_is_locked_out(alice: User, bob: User) -> None:
    for number in range(USERNAMES_PER_ADDRESS):
        sign_in(f"nobody-{number}", "wrong", address="203.0.113.50")

    assert is_locked_out(sign_in("bob", PASSWORD, address="203.0.113.50"))
    assert is_signed_in(sign_in("bob", PASSWORD, address="203.0.113.51"))


def test_a_password_reset_lifts_the_accounts_lock_out(alice: User) -> None:
    for _ in range(LIMIT):
        sign_in("alice", "wrong", address="198.51.100.9")
    assert is_locked_out(sign_in("alice", PASSWORD, address="198.51.100.9"))
    owner = Client(REMOTE_ADDR="198.51.100.9")
    owner.post("/accounts/password_reset/", {"email": "alice@example.com"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[-1].body)
    assert link is not None
    form = owner.get(link.group(1), follow=True)
    new_password = "a-brand-new-passphrase"
    owner.post(
        form.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
    )

    assert is_signed_in(sign_in("alice", new_password, address="198.51.100.9"))


def test_a_forwarded_for_header_does_not_change_the_address_counted(bob: User) -> None:
    for number in range(USERNAMES_PER_ADDRESS):
        sign_in(
            f"nobody-{number}",
            "wrong",
            address="203.0.113.60",
            HTTP_X_FORWARDED_FOR=f"10.9.8.{number}",
        )

    assert is_locked_out(
        sign_in("bob", PASSWORD, address="203.0.113.60", HTTP_X_FORWARDED_FOR="10.9.9.9")
    )


def test_the_admin_sign_in_is_limited_too(make_user: Any) -> None:
    make_user("boss", is_staff=True)
    for _ in range(LIMIT):
        Client().post(
            "/admin/login/", {"username": "boss", "password": "wrong"}, REMOTE_ADDR="192.0.2.1"
        )

    response = Client().post(
        "/admin/login/", {"username": "boss", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1"
    )

    assert is_locked_out(response)


def test_staff_lift_a_lock_out_in_the_admin(alice: User, make_user: Any) -> None:
    for _ in range(LIMIT):
        sign_in("alice", "wrong")
    assert is_locked_out(sign_in("alice", PASSWORD))
    staff = Client()
    staff.force_login(make_user("boss", is_staff=True, is_superuser=True))
    attempts = AccessAttempt.objects.filter(username="alice")
    assert attempts.exists()

    listed = staff.get(reverse("admin:axes_accessattempt_changelist"))
    lifted = staff.post(
        reverse("admin:axes_accessattempt_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": list(attempts.values_list("pk", flat=True)),
            "post": "yes",
        },
    )

    assert listed.status_code == 200
    assert "alice" in listed.text
    assert lifted.status_code == 302
    assert is_signed_in(sign_in("alice", PASSWORD))


@pytest.mark.parametrize("username", ["a" * 5000, "nul\x00byte", "émoji 🙂" * 40])
def test_odd_usernames_get_a_refusal_never_a_server_error(username: str) -> None:
    """The sign-in form does not bound the username's length: axes must cope with any."""
    statuses = [sign_in(username, "wrong", address="192.0.2.77").status_code for _ in range(3)]

    assert set(statuses) == {200}


def test_a_very_long_username_is_counted_and_locked_out_like_any() -> None:
    for _ in range(LIMIT):
        sign_in("a" * 5000, "wrong", address="192.0.2.1")

    assert is_locked_out(sign_in("a" * 5000, "wrong", address="192.0.2.1"))
