"""Bodies built to hurt the server: deeply nested, oversized, padded. Each gets a clear 4xx in the
API's error shape before anything is parsed further, and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.api.parsers import MAX_JSON_DEPTH, BoundedJSONParser, RequestTooLarge
from games.models import Game
from tests.api.helpers import error_code, footprint, game_url

JSON = "application/json"


def post_raw(client: APIClient, url: str, body: bytes, version: int | None = None) -> object:
    headers = {"If-Match": f'"{version}"'} if version is not None else {}
    return client.generic("POST", url, body, content_type=JSON, headers=headers)


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        "[" * 5_000,  # unterminated as well as deep
    ],
    ids=["array", "object", "unterminated"],
)
def test_an_action_nested_thousands_deep_is_a_parse_error_that_changes_nothing(
    started_game: Game, as_alice: APIClient, body: str
) -> None:
    before = footprint(started_game)

    response = post_raw(
        as_alice, game_url(started_game, "actions/"), body.encode(), started_game.version
    )

    assert response.status_code in (400, 413)
    assert error_code(response) in ("parse_error", "request_too_large")
    assert footprint(started_game) == before


def test_json_nested_just_past_the_limit_is_refused_on_every_json_endpoint(
    started_game: Game, as_alice: APIClient
) -> None:
    nested: object = 1
    for _ in range(MAX_JSON_DEPTH + 1):
        nested = [nested]
    body = json.dumps({"type": "take_gems", "gems": nested}).encode()
    before = footprint(started_game)
    games_before = Game.objects.count()

    for url in (
        game_url(started_game, "actions/"),
        "/api/v1/games/",
        game_url(started_game, "join/"),
        game_url(started_game, "bots/"),
        "/api/v1/profile/",
    ):
        method = "PATCH" if url.endswith("profile/") else "POST"
        response = as_alice.generic(
            method, url, body, content_type=JSON, headers={"If-Match": f'"{before[0]}"'}
        )
        assert response.status_code == 400, url
        assert error_code(response) == "parse_error", url
        assert "nested" in response.json()["error"]["message"]

    assert footprint(started_game) == before
    assert Game.objects.count() == games_before


def test_json_as_deep_as_the_limit_is_read_as_usual(
    started_game: Game, as_alice: APIClient
) -> None:
    nested: object = "white"
    for _ in range(MAX_JSON_DEPTH - 1):
        nested = [nested]

    response = post_raw(
        as_alice,
        game_url(started_game, "actions/"),
        json.dumps(nested).encode(),
        started_game.version,
    )

    # Read, then refused for its shape (an action is an object), not for its depth.
    assert response.status_code == 400
    assert error_code(response) == "validation_error"


def oversized_bodies() -> dict[str, bytes]:
    limit = settings.REQUEST_BODY_MAX_BYTES
    gems = ["white"] * (limit // 8 + 10)
    return {
        "five megabytes": b'{"type": "pass", "x": "' + b"a" * 5_000_000 + b'"}',
        "half a million gems": json.dumps({"type": "take_gems", "gems": gems}).encode(),
        "four gems padded with spaces": (
            b'{"type": "take_gems", "gems": ["white", "blue", "green", "red"]'
            + b" " * (limit + 1)
            + b"}"
        ),
    }


@pytest.mark.parametrize("name", list(oversized_bodies()))
def test_a_body_above_the_limit_is_413_before_it_is_read(
    started_game: Game, as_alice: APIClient, name: str
) -> None:
    body = oversized_bodies()[name]
    before = footprint(started_game)
    games_before = Game.objects.count()

    for url in (game_url(started_game, "actions/"), "/api/v1/games/"):
        response = post_raw(as_alice, url, body, started_game.version)
        assert response.status_code == 413, url
        assert error_code(response) == "request_too_large"
        details = response.json()["error"]["details"]
        assert details == {"max_bytes": settings.REQUEST_BODY_MAX_BYTES}

    assert footprint(started_game) == before
    assert Game.objects.count() == games_before


def test_a_body_that_lies_about_its_length_cannot_pass_the_limit() -> None:
    """The parser reads at most the limit, whatever Content-Length claimed."""

    class Stream:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read(self, size: int = -1) -> bytes:
            assert size != -1, "the parser must never read without a bound"
            chunk, self.data = self.data[:size], self.data[size:]
            return chunk

    with pytest.raises(RequestTooLarge):
        BoundedJSONParser().parse(Stream(b" " * (settings.REQUEST_BODY_MAX_BYTES + 1) + b"{}"))
    assert BoundedJSONParser().parse(Stream(b'{"type": "pass"}')) == {"type": "pass"}


def test_a_padded_but_small_take_gems_is_refused_for_its_shape(
    started_game: Game, as_alice: APIClient
) -> None:
    body = (
        b'{"type": "take_gems", "gems": ["white", "blue", "green", "red"]'
        + b" " * (settings.REQUEST_BODY_MAX_BYTES // 2)
        + b"}"
    )
    before = footprint(started_game)

    response = post_raw(as_alice, game_url(started_game, "actions/"), body, started_game.version)

    assert response.status_code == 400
    assert error_code(response) == "validation_error"
    assert footprint(started_game) == before


def test_a_page_post_above_the_limit_is_413(client: Client, alice: User) -> None:
    client.force_login(alice)
    body = "name=" + "a" * (settings.REQUEST_BODY_MAX_BYTES + 1)

    response = client.post(
        "/accounts/profile/tokens/", body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 413
    assert b"too large" in response.content
    assert not alice.api_tokens.exists()


def test_a_game_file_to_import_may_be_larger_than_a_command(as_alice: APIClient) -> None:
    """The import reads up to its own 5 MB: a 200 KB document is read (and refused for what it
    says), while the same bytes to the game list are 413."""
    body = json.dumps({"format": "nonsense", "padding": "x" * 200_000}).encode()

    imported = as_alice.generic("POST", "/api/v1/games/import/", body, content_type=JSON)
    created = as_alice.generic("POST", "/api/v1/games/", body, content_type=JSON)

    assert imported.status_code == 400
    assert created.status_code == 413


def test_more_query_fields_than_django_reads_is_a_400_not_a_server_error(
    started_game: Game, as_alice: APIClient
) -> None:
    fields = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1
    query = "&".join(f"after={index}" for index in range(fields))

    response = as_alice.get(f"{game_url(started_game, 'events/')}?{query}")

    assert response.status_code == 400
    assert error_code(response) == "parse_error"
