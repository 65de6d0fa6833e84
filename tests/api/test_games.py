"""Games over HTTP: creating, listing with filters, one game with its ETag, and who sees what."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from urllib import parse

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.commands import lobby
from games.models import Game, GameEvent, Seat
from tests.api.helpers import error_code, footprint, game_url, post_action


def test_creating_a_game_seats_the_caller_and_answers_with_its_view(
    alice: User, as_alice: APIClient
) -> None:
    response = as_alice.post(
        "/api/v1/games/",
        {"seats": [{"type": "user"}, {"type": "open"}, {"type": "bot", "level": "random"}]},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert response["Location"] == game_url(body["id"])
    assert response["ETag"] == f'"{body["version"]}"'
    assert body["status"] == "waiting"
    assert body["viewer_seat"] == 0
    assert [seat["is_open"] for seat in body["seats"]] == [False, True, False]
    assert body["seats"][2]["bot_level"] == "random"
    assert Seat.objects.get(game_id=body["id"], index=0).user == alice


def test_a_game_with_every_seat_filled_starts_at_once(as_alice: APIClient) -> None:
    response = as_alice.post(
        "/api/v1/games/",
        {"seats": [{"type": "user"}, {"type": "bot", "level": "greedy"}], "is_public": False},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["status"] == "active"
    assert response.json()["state"]["viewer"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": [{"type": "user"}]}, "seats"),
        ({"seats": [{"type": "user"}] + [{"type": "open"}] * 4}, "seats"),
        ({"seats": [{"type": "user"}, {"type": "bot"}]}, "seats"),
        ({"seats": [{"type": "user"}, {"type": "bot", "level": "genius"}]}, "seats"),
        ({"seats": [{"type": "user"}, {"type": "robot"}]}, "seats"),
        ({"seats": "two"}, "seats"),
        ({"variant": "duel!", "seats": [{"type": "user"}, {"type": "open"}]}, "variant"),
        ({"is_public": "yes", "seats": [{"type": "user"}, {"type": "open"}]}, "is_public"),
        ({"seats": [{"type": "user"}, {"type": "open"}], "colour": "red"}, "colour"),
    ],
)
def test_a_bad_game_request_is_refused_field_by_field(
    as_alice: APIClient, body: dict[str, object], field: str
) -> None:
    response = as_alice.post("/api/v1/games/", body, format="json")

    assert response.status_code == 400
    assert error_code(response) == "validation_error"
    assert field in response.json()["error"]["details"]["fields"]
    assert Game.objects.count() == 0


def test_taking_two_seats_is_refused_as_joining_twice_is(as_alice: APIClient) -> None:
    """409 like the join endpoint's "you already have a seat": the schema cannot count seats,
    so a schema-valid body is refused for the game's rule, not for its shape
    (docs/decisions/0097-schemathesis-exceptions.md)."""
    response = as_alice.post(
        "/api/v1/games/", {"seats": [{"type": "user"}, {"type": "user"}]}, format="json"
    )

    assert response.status_code == 409
    assert error_code(response) == "invalid_request"
    assert response.json()["error"]["message"] == "A player can take only one seat in a game."
    assert Game.objects.count() == 0


def test_the_base_game_has_no_options(as_alice: APIClient) -> None:
    response = as_alice.post(
        "/api/v1/games/",
        {"seats": [{"type": "user"}, {"type": "open"}], "options": {"turbo": True}},
        format="json",
    )

    assert response.status_code == 400
    assert error_code(response) == "validation_error"
    assert "turbo" in response.json()["error"]["details"]["fields"]["options"]


def test_anonymous_visitors_cannot_create_games(anonymous: APIClient, db: None) -> None:
    response = anonymous.post(
        "/api/v1/games/", {"seats": [{"type": "open"}, {"type": "open"}]}, format="json"
    )

    assert response.status_code == 401


# --- Seeing games -----------------------------------------------------------------------------


def test_a_private_game_of_others_does_not_exist_for_the_caller(
    private_game: Game, as_carol: APIClient, anonymous: APIClient
) -> None:
    before = footprint(private_game)
    for client in (as_carol, anonymous):
        for suffix in ("", "legal-actions/", "events/", "export/"):
            response = client.get(game_url(private_game, suffix))
            assert response.status_code == 404, suffix
            assert error_code(response) == "not_found"
    for suffix, body in (("join/", {}), ("resign/", {}), ("bots/", {"level": "random"})):
        assert as_carol.post(game_url(private_game, suffix), body, format="json").status_code == 404
    stale = post_action(as_carol, private_game, {"type": "pass"}, version=1)
    assert stale.status_code == 404
    assert footprint(private_game) == before
    listed = as_carol.get("/api/v1/games/").json()["results"]
    assert private_game.pk not in [game["id"] for game in listed]


def test_the_players_of_a_private_game_see_it(private_game: Game, as_bob: APIClient) -> None:
    assert as_bob.get(game_url(private_game)).json()["viewer_seat"] == 1
    listed = as_bob.get("/api/v1/games/").json()["results"]
    assert [game["id"] for game in listed] == [private_game.pk]


def test_anyone_may_watch_a_public_game_as_a_spectator(
    started_game: Game, anonymous: APIClient
) -> None:
    body = anonymous.get(game_url(started_game)).json()

    assert body["viewer_seat"] is None
    assert body["legal_actions"] == []
    assert body["state"]["viewer"] is None


def test_the_list_filters_by_status_variant_mine_and_my_turn(
    alice: User,
    bob: User,
    carol: User,
    started_game: Game,
    client_for: Callable[[User], APIClient],
) -> None:
    waiting = lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(carol), lobby.OpenSeat()],
        created_by=carol,
    )
    as_alice, as_bob, as_carol = client_for(alice), client_for(bob), client_for(carol)

    def ids(client: APIClient, query: str) -> list[int]:
        response = client.get(f"/api/v1/games/?{query}")
        assert response.status_code == 200, response.content
        return [game["id"] for game in response.json()["results"]]

    assert ids(as_alice, "") == [waiting.pk, started_game.pk]
    assert ids(as_alice, "status=waiting") == [waiting.pk]
    assert ids(as_alice, "status=active&variant=splendor") == [started_game.pk]
    assert ids(as_alice, "mine=true") == [started_game.pk]
    assert ids(as_carol, "mine=true") == [waiting.pk]
    assert ids(as_alice, "my_turn=true") == [started_game.pk]
    assert ids(as_bob, "my_turn=true") == []
    summary = as_alice.get("/api/v1/games/?mine=true").json()["results"][0]
    assert summary["is_my_turn"] is True
    assert summary["viewer_seat"] == 0
    assert "state" not in summary
    assert "legal_actions" not in summary


def test_the_list_comes_in_pages_with_a_next_cursor(alice: User, as_alice: APIClient) -> None:
    for _ in range(3):
        lobby.game_create(
            variant="splendor",
            seats=[lobby.UserSeat(alice), lobby.OpenSeat()],
            created_by=alice,
        )

    first = as_alice.get("/api/v1/games/?limit=2").json()
    second = as_alice.get(first["next"]).json()

    assert len(first["results"]) == 2
    assert len(second["results"]) == 1
    assert second["next"] is None
    assert {game["id"] for game in first["results"] + second["results"]} == set(
        Game.objects.values_list("pk", flat=True)
    )


def test_my_own_games_need_a_signed_in_caller(anonymous: APIClient, db: None) -> None:
    response = anonymous.get("/api/v1/games/?my_turn=true")

    assert response.status_code == 401


@pytest.mark.parametrize(
    "query", ["status=paused", "variant=chess", "mine=perhaps", "limit=0", "limit=101", "cursor=zz"]
)
def test_bad_list_filters_get_400(as_alice: APIClient, query: str) -> None:
    response = as_alice.get(f"/api/v1/games/?{query}")

    assert response.status_code == 400
    assert error_code(response) == "validation_error"


# --- ETag -------------------------------------------------------------------------------------


def test_the_game_carries_its_version_as_etag(started_game: Game, as_alice: APIClient) -> None:
    response = as_alice.get(game_url(started_game))

    assert response["ETag"] == f'"{started_game.version}"'
    assert response.json()["version"] == started_game.version


def test_if_none_match_answers_304_while_the_game_is_unchanged(
    started_game: Game, as_alice: APIClient, django_assert_max_num_queries: object
) -> None:
    etag = f'"{started_game.version}"'

    with django_assert_max_num_queries(3):  # type: ignore[operator]
        unchanged = as_alice.get(game_url(started_game), headers={"If-None-Match": etag})
    post_action(as_alice, started_game, {"type": "take_gems", "gems": ["white", "blue", "red"]},
                version=started_game.version)  # fmt: skip
    changed = as_alice.get(game_url(started_game), headers={"If-None-Match": etag})

    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == etag
    assert changed.status_code == 200
    assert changed["ETag"] == f'"{started_game.version + 1}"'


def test_if_none_match_is_answered_without_replaying_the_game(
    started_game: Game, as_alice: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.reads import loading
    from games.store import records

    def no_replay(game: Game) -> None:
        raise AssertionError("a 304 must not rebuild the game")

    monkeypatch.setattr(records, "record_from_log", no_replay)
    monkeypatch.setattr(loading, "game_state", no_replay)

    response = as_alice.get(
        game_url(started_game), headers={"If-None-Match": f'W/"{started_game.version}"'}
    )

    assert response.status_code == 304


def test_a_game_that_does_not_exist_is_404(as_alice: APIClient) -> None:
    for game_id in (987654, 2**62, 10**30):
        response = as_alice.get(game_url(game_id))
        assert response.status_code == 404
        assert error_code(response) == "not_found"
    assert GameEvent.objects.count() == 0


@pytest.mark.parametrize(
    "cursor",
    [
        "cD0xMjM%3D",  # base64 of p=123: well formed, never issued
        "cD1hYmM%3D",  # p=abc
        "bz0xJnI9MSZwPTIwMjYtMDEtMDE%3D",  # o=1&r=1&p=2026-01-01
        "%00",
        "cD0xMjM=:forgedsignature",
    ],
)
def test_a_cursor_the_server_did_not_issue_is_400(
    alice: User, as_alice: APIClient, cursor: str
) -> None:
    lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(alice), lobby.OpenSeat()],
        created_by=alice,
    )

    response = as_alice.get(f"/api/v1/games/?cursor={cursor}")

    assert response.status_code == 400
    assert error_code(response) == "validation_error"
    assert set(response.json()["error"]["details"]["fields"]) == {"cursor"}


def test_an_issued_cursor_edited_by_the_client_is_400(alice: User, as_alice: APIClient) -> None:
    for _ in range(3):
        lobby.game_create(
            variant="splendor",
            seats=[lobby.UserSeat(alice), lobby.OpenSeat()],
            created_by=alice,
        )
    next_url = as_alice.get("/api/v1/games/?limit=1").json()["next"]
    issued = parse.parse_qs(parse.urlsplit(next_url).query)["cursor"][0]
    _value, _, signature = issued.rpartition(":")
    edited = base64.b64encode(b"p=abc").decode() + ":" + signature

    assert as_alice.get(next_url).status_code == 200
    response = as_alice.get("/api/v1/games/", {"limit": 1, "cursor": edited})

    assert response.status_code == 400
    assert error_code(response) == "validation_error"


def test_past_a_cap_creating_a_game_is_refused_with_429_and_the_reason(
    as_alice: APIClient, settings: Any
) -> None:
    settings.GAMES_MAX_CREATED_PER_HOUR = 1
    body = {"seats": [{"type": "user"}, {"type": "open"}]}
    assert as_alice.post("/api/v1/games/", body, format="json").status_code == 201

    response = as_alice.post("/api/v1/games/", body, format="json")

    assert response.status_code == 429
    assert error_code(response) == "limit_reached"
    assert "1 games in the last hour" in response.json()["error"]["message"]
    assert Game.objects.count() == 1
