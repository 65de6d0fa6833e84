"""Personal API tokens: created from a session, shown once, stored hashed, revoked at once."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.models import ApiToken
from tests.api.helpers import error_code, game_url


@pytest.fixture
def signed_in_alice(alice: User) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def csrf_post(client: APIClient, url: str, data: dict[str, object]) -> Any:
    """POST as a page would: the CSRF cookie, and the same secret in X-CSRFToken."""
    secret = "a" * 32  # any 32 letters or digits form a valid CSRF secret
    client.cookies["csrftoken"] = secret
    return client.post(url, data, format="json", headers={"X-CSRFToken": secret})


def test_a_signed_in_session_creates_a_token_shown_once(signed_in_alice: APIClient) -> None:
    response = csrf_post(signed_in_alice, "/api/v1/tokens/", {"name": "my bot"})

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "my bot"
    assert body["is_active"] is True
    assert body["token"].startswith("spl_")
    assert response["Cache-Control"] == "no-store"
    listed = signed_in_alice.get("/api/v1/tokens/").json()
    assert [token["id"] for token in listed] == [body["id"]]
    assert "token" not in listed[0]
    assert body["token"] not in str(listed)


def test_the_session_must_pass_the_csrf_check_to_create_a_token(
    signed_in_alice: APIClient,
) -> None:
    response = signed_in_alice.post("/api/v1/tokens/", {"name": "x"}, format="json")

    assert response.status_code == 403
    assert ApiToken.objects.count() == 0


def test_a_token_cannot_create_tokens(as_alice: APIClient) -> None:
    response = as_alice.post("/api/v1/tokens/", {"name": "another"}, format="json")

    assert response.status_code == 403
    assert error_code(response) == "forbidden"
    assert ApiToken.objects.count() == 1  # the one the client uses


def test_only_a_hash_of_the_token_is_stored(alice: User) -> None:
    token, raw_token = account_services.token_create(alice, "bot")

    stored = ApiToken.objects.filter(pk=token.pk).values().get()
    assert stored["token_hash"] == hashlib.sha256(raw_token.encode()).hexdigest()
    assert raw_token not in str(stored)


def test_a_bearer_token_authenticates_and_records_its_use(alice: User) -> None:
    token, raw_token = account_services.token_create(alice, "bot")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")

    response = client.get("/api/v1/profile/")

    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_a_revoked_token_is_refused_at_once(alice: User) -> None:
    token, raw_token = account_services.token_create(alice, "bot")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    assert client.get("/api/v1/profile/").status_code == 200

    revoke = client.delete(f"/api/v1/tokens/{token.pk}/")
    after = client.get("/api/v1/profile/")

    assert revoke.status_code == 204
    assert after.status_code == 401
    assert error_code(after) == "authentication_failed"
    assert after["WWW-Authenticate"].startswith("Bearer")


def test_revoking_twice_keeps_the_first_revocation_time(alice: User) -> None:
    token, _raw = account_services.token_create(alice, "bot")
    first = account_services.token_revoke(token.pk, alice).revoked_at

    again = account_services.token_revoke(token.pk, alice).revoked_at

    assert first is not None
    assert again == first


def test_another_users_token_cannot_be_revoked_nor_seen(alice: User, as_bob: APIClient) -> None:
    token, _raw = account_services.token_create(alice, "alice's bot")

    response = as_bob.delete(f"/api/v1/tokens/{token.pk}/")

    assert response.status_code == 404
    assert error_code(response) == "not_found"
    token.refresh_from_db()
    assert token.is_active
    assert "alice's bot" not in str(as_bob.get("/api/v1/tokens/").json())


@pytest.mark.parametrize(
    "header",
    ["Bearer", "Bearer a b", "Bearer spl_not-a-real-token", "Bearer " + "x" * 500],
)
def test_malformed_or_unknown_bearer_tokens_get_401(header: str, db: None) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/v1/profile/")

    assert response.status_code == 401
    assert error_code(response) == "authentication_failed"


def test_no_credentials_get_401_with_a_bearer_challenge(anonymous: APIClient, db: None) -> None:
    response = anonymous.get("/api/v1/profile/")

    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_a_token_of_an_inactive_user_is_refused(alice: User) -> None:
    _token, raw_token = account_services.token_create(alice, "bot")
    alice.is_active = False
    alice.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")

    assert client.get("/api/v1/profile/").status_code == 401


def test_a_token_never_appears_in_logs_or_later_responses(
    alice: User,
    bob: User,
    client_for: Callable[[User], APIClient],
    caplog: pytest.LogCaptureFixture,
) -> None:
    token, raw_token = account_services.token_create(alice, "secret bot")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    bodies: list[bytes] = []

    with caplog.at_level(logging.DEBUG):
        created = client.post(
            "/api/v1/games/", {"seats": [{"type": "user"}, {"type": "open"}]}, format="json"
        )
        game_id = created.json()["id"]
        for response in (
            created,
            client.get("/api/v1/tokens/"),
            client.get("/api/v1/profile/"),
            client.get("/api/v1/games/"),
            client.get(game_url(game_id)),
            client.get(game_url(game_id, "events/")),
            client.post(game_url(game_id, "actions/"), {"type": "pass"}, format="json"),
            client.get("/api/v1/nowhere/"),
            client.delete(f"/api/v1/tokens/{token.pk}/"),
            client.get("/api/v1/profile/"),  # refused now: the message must not echo it
        ):
            bodies.append(response.content)
            assert raw_token not in str(dict(response.items()))

    assert caplog.records, "the 4xx responses above are logged by django.request"
    assert all(raw_token.encode() not in body for body in bodies)
    assert raw_token not in caplog.text
    assert token.token_hash not in caplog.text
