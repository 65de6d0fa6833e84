"""One error shape everywhere under /api/: refusals, DRF's own errors, unknown URLs, crashes."""

from __future__ import annotations

import logging

import pytest
from rest_framework.test import APIClient

from games.models import Game
from games.reads import game_view
from tests.api.helpers import error_code, game_url


@pytest.mark.parametrize(
    "path", ["/api/", "/api/v2/games/", "/api/v1/games/abc/", "/api/v1/games/-1/", "/api/x/y/z"]
)
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_unknown_api_urls_answer_a_json_404(
    anonymous: APIClient, path: str, method: str, db: None
) -> None:
    response = getattr(anonymous, method)(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert error_code(response) == "not_found"


@pytest.mark.parametrize("game_id", [0, 2**63, 10**30])
@pytest.mark.parametrize(
    ("method", "suffix"), [("get", ""), ("get", "legal-actions/"), ("post", "actions/")]
)
def test_a_game_id_no_game_can_have_is_a_json_404(
    as_alice: APIClient, game_id: int, method: str, suffix: str
) -> None:
    # The hot reads are SQL strings: an id beyond the key's range must not reach the database.
    response = getattr(as_alice, method)(
        f"/api/v1/games/{game_id}/{suffix}", {"type": "pass"}, HTTP_IF_MATCH='"1"'
    )

    assert response.status_code == 404
    assert error_code(response) == "not_found"


def test_a_missing_trailing_slash_is_pointed_out(anonymous: APIClient, db: None) -> None:
    response = anonymous.get("/api/v1/games")

    assert response.status_code == 404
    assert "/api/v1/games/" in response.json()["error"]["message"]


def test_a_method_not_allowed_is_405_in_the_error_shape(
    started_game: Game, as_alice: APIClient
) -> None:
    response = as_alice.delete(game_url(started_game))

    assert response.status_code == 405
    assert error_code(response) == "method_not_allowed"
    assert "GET" in response["Allow"]


def test_asking_for_anything_but_json_is_406(started_game: Game, as_alice: APIClient) -> None:
    response = as_alice.get(game_url(started_game), headers={"Accept": "text/html"})

    assert response.status_code == 406
    assert error_code(response) == "not_acceptable"


def test_an_unexpected_error_is_a_logged_json_500(
    started_game: Game, as_alice: APIClient, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(game_view, "game_view_for_viewer", broken)
    as_alice.raise_request_exception = False

    with caplog.at_level(logging.ERROR, logger="games.api.errors"):
        response = as_alice.get(game_url(started_game))

    assert response.status_code == 500
    assert error_code(response) == "server_error"
    assert "fire" not in response.json()["error"]["message"]
    assert "the disk is on fire" in caplog.text


def test_the_error_shape_is_documented_in_the_schema(anonymous: APIClient, db: None) -> None:
    schema = anonymous.get("/api/schema/?format=json").json()

    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    actions = schema["paths"]["/api/v1/games/{game_id}/actions/"]["post"]
    assert {"412", "422", "428", "429"} <= set(actions["responses"])
    headers = {parameter["name"] for parameter in actions["parameters"]}
    assert {"If-Match", "Idempotency-Key"} <= headers
    assert "ETag" in actions["responses"]["200"]["headers"]
