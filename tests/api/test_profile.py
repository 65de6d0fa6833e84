"""The caller's profile: display name and the notification settings."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts import selectors as account_selectors
from accounts.models import Profile
from tests.api.helpers import error_code


def test_a_new_player_has_the_default_profile_without_a_row(
    alice: User, as_alice: APIClient
) -> None:
    response = as_alice.get("/api/v1/profile/")

    assert response.json() == {
        "username": "alice",
        "display_name": "",
        "notify": "every_turn",
        "digest_hour": 8,
        "time_zone": "UTC",
    }
    assert not Profile.objects.exists()


def test_patching_changes_only_the_given_fields(alice: User, as_alice: APIClient) -> None:
    first = as_alice.patch("/api/v1/profile/", {"display_name": "  Alice A.  "}, format="json")
    second = as_alice.patch(
        "/api/v1/profile/",
        {"notify": "daily_digest", "digest_hour": 19, "time_zone": "Europe/Paris"},
        format="json",
    )

    assert first.json()["display_name"] == "Alice A."
    assert second.json() == {
        "username": "alice",
        "display_name": "Alice A.",
        "notify": "daily_digest",
        "digest_hour": 19,
        "time_zone": "Europe/Paris",
    }
    assert account_selectors.display_name_for(alice) == "Alice A."


@pytest.mark.parametrize(
    "body",
    [
        {"display_name": "x" * 51},
        {"display_name": "tab\there"},
        {"display_name": 5},
        {"notify": "sometimes"},
        {"notify": None},
        {"digest_hour": 24},
        {"digest_hour": "8"},
        {"time_zone": "Mars/Olympus_Mons"},
        {"username": "mallory"},
    ],
)
def test_a_bad_profile_change_is_400_and_changes_nothing(
    alice: User, as_alice: APIClient, body: dict[str, object]
) -> None:
    response = as_alice.patch("/api/v1/profile/", body, format="json")

    assert response.status_code == 400
    assert error_code(response) == "validation_error"
    assert response.json()["error"]["details"]["fields"]
    assert as_alice.get("/api/v1/profile/").json() == {
        "username": "alice",
        "display_name": "",
        "notify": "every_turn",
        "digest_hour": 8,
        "time_zone": "UTC",
    }


def test_put_is_not_allowed(as_alice: APIClient) -> None:
    response = as_alice.put("/api/v1/profile/", {"display_name": "A"}, format="json")

    assert response.status_code == 405
    assert error_code(response) == "method_not_allowed"
