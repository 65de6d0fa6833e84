"""The caller's profile: display name and the notification settings."""

from __future__ import annotations

import re
import unicodedata

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts import selectors as account_selectors
from accounts.models import Profile
from accounts.text import (
    FORBIDDEN_CHARACTERS,
    NON_BLANK_TEXT_PATTERN,
    VISIBLE_NON_EMPTY_TEXT_PATTERN,
    VISIBLE_TEXT_PATTERN,
    has_forbidden_characters,
)
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
        {"display_name": "evil\u202eeman"},  # a right-to-left override
        {"display_name": "zero\u200bwidth"},
        {"display_name": "two\nlines"},
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


def test_the_forbidden_characters_are_exactly_the_controls_and_invisible_formatting() -> None:
    """The class written in accounts.text is Unicode's Cc and the BMP's Cf, for this Python."""
    in_class = re.compile(f"[{FORBIDDEN_CHARACTERS}]")
    for code_point in range(0x10000):
        char = chr(code_point)
        if 0xD800 <= code_point <= 0xDFFF:
            assert has_forbidden_characters(char)  # lone surrogates, refused apart
            continue
        expected = unicodedata.category(char) in ("Cc", "Cf")
        assert (in_class.search(char) is not None) == expected, hex(code_point)
    assert not has_forbidden_characters("Zoë 🙂 \U000e0067\ue000")


@pytest.mark.parametrize(
    ("text", "visible", "non_blank"),
    [("", True, False), ("   ", True, False), (" Ann ", True, True), ("A\x07", False, False)],
)
def test_the_schema_patterns_say_what_the_code_does(
    text: str, visible: bool, non_blank: bool
) -> None:
    assert (re.search(VISIBLE_TEXT_PATTERN, text) is not None) == visible
    assert (re.search(NON_BLANK_TEXT_PATTERN, text) is not None) == non_blank
    # The display name's schema is oneOf this and the empty text: they must not overlap.
    assert (re.search(VISIBLE_NON_EMPTY_TEXT_PATTERN, text) is not None) == (visible and text != "")
    assert has_forbidden_characters(text) == (not visible)
