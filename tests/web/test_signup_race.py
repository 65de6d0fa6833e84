"""Sign-ups racing for one username on a real PostgreSQL: one account is made, and every other
sign-up gets the form's usual "already exists" error (never a server error)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client

from tests.races import all_at_once
from tests.web.conftest import PASSWORD

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 12


class SlowPasswordHasher(MD5PasswordHasher):
    """Hashing takes as long as a real hasher's, without its CPU: the form checks the name,
    then hashes, then inserts, and every racer passes the check before the first insert."""

    algorithm = "slow-md5-for-tests"

    def encode(self, password: str, salt: str) -> str:
        time.sleep(0.3)
        return super().encode(password, salt)


def sign_up_all_at_once(usernames: list[str]) -> list[Any]:
    return all_at_once(
        lambda index: Client().post(
            "/accounts/signup/",
            {
                "username": usernames[index % len(usernames)],
                "email": f"racer{index}@example.com",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        ),
        RACERS,
    )


def assert_one_won_and_the_others_were_told(outcomes: list[Any]) -> None:
    """One sign-up went through (303); every other got the form's error (400), none crashed."""
    crashes = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert not crashes, crashes[:2]
    statuses = sorted(response.status_code for response in outcomes)
    assert statuses == [303] + [400] * (RACERS - 1)
    for response in outcomes:
        if response.status_code == 400:
            assert "A user with that username already exists." in response.text


def test_racing_sign_ups_for_one_name_make_one_account_and_tell_the_others(
    settings: Any,
) -> None:
    settings.PASSWORD_HASHERS = [f"{__name__}.SlowPasswordHasher"]

    outcomes = sign_up_all_at_once(["racer"])

    assert_one_won_and_the_others_were_told(outcomes)
    assert get_user_model().objects.filter(username="racer").count() == 1


def test_racing_sign_ups_for_one_name_in_different_cases_make_one_account(
    settings: Any,
) -> None:
    settings.PASSWORD_HASHERS = [f"{__name__}.SlowPasswordHasher"]

    outcomes = sign_up_all_at_once(["Racer", "racer", "RACER", "rAcEr"])

    assert_one_won_and_the_others_were_told(outcomes)
    assert get_user_model().objects.filter(username__iexact="racer").count() == 1
