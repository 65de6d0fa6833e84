"""The event history (with its polling cursor) and the export of finished games."""

from __future__ import annotations

from rest_framework.test import APIClient

from games.models import Game
from games.records import projection
from tests.api.helpers import error_code, game_url, post_action


def test_events_come_in_order_with_a_cursor_to_poll(
    started_game: Game, as_alice: APIClient
) -> None:
    first = as_alice.get(game_url(started_game, "events/?limit=2")).json()
    rest = as_alice.get(first["next"]).json()

    assert [event["seq"] for event in first["events"]] == [1, 2]
    assert first["cursor"] == 2
    assert first["has_more"] is True
    assert [event["seq"] for event in rest["events"]] == list(range(3, started_game.version + 1))
    assert rest["has_more"] is False
    assert "limit=2" in rest["next"]
    assert f"after={rest['cursor']}" in rest["next"]


def test_polling_after_the_last_event_returns_new_events_only(
    started_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    caught_up = as_bob.get(game_url(started_game, f"events/?after={started_game.version}")).json()
    assert caught_up["events"] == []
    assert caught_up["cursor"] == started_game.version

    post_action(as_alice, started_game, {"type": "take_gems", "gems": ["red", "blue", "white"]},
                version=started_game.version)  # fmt: skip
    news = as_bob.get(caught_up["next"]).json()

    assert [event["kind"] for event in news["events"]] == ["ActionTaken"]
    assert news["events"][0]["payload"]["action"]["gems"] == ["white", "blue", "red"]
    assert news["cursor"] == started_game.version + 1


def test_the_setup_stays_out_of_the_history_while_the_game_runs(
    started_game: Game, as_alice: APIClient
) -> None:
    events = as_alice.get(game_url(started_game, "events/")).json()["events"]

    started = next(event for event in events if event["kind"] == "GameStarted")
    assert set(started["payload"]) == {"commitment"}


def test_bad_cursors_are_400(started_game: Game, as_alice: APIClient) -> None:
    for query in ("after=-1", "after=x", "limit=0", "limit=501", f"after={2**40}"):
        response = as_alice.get(game_url(started_game, f"events/?{query}"))
        assert response.status_code == 400, query
        assert error_code(response) == "validation_error"


def test_a_running_game_cannot_be_exported(started_game: Game, as_alice: APIClient) -> None:
    """409 like any request the game's status refuses, and as the other two exports: the game
    itself exists (a 404 made schemathesis report a game it had just created as missing)."""
    response = as_alice.get(game_url(started_game, "export/"))

    assert response.status_code == 409
    assert error_code(response) == "game_not_over"
    assert response.json()["error"]["message"] == (
        f"Game {started_game.pk} can be exported once it is over."
    )


def test_a_finished_game_exports_everything_and_the_shuffle_checks_out(
    started_game: Game, as_alice: APIClient, anonymous: APIClient
) -> None:
    as_alice.post(game_url(started_game, "resign/"))

    response = anonymous.get(game_url(started_game, "export/"))

    assert response.status_code == 200
    export = response.json()
    assert export["format"] == "splendor-online/game-export/1"
    started = next(event for event in export["events"] if event["kind"] == "GameStarted")
    revealed = export["game"]["revealed"]
    assert started["payload"]["setup"] == revealed["setup"]
    assert revealed["setup"]["seed"] == 20240611
    commitment = projection.commitment_for(revealed["setup"], revealed["salt"])
    assert commitment == export["game"]["commitment"] == started["payload"]["commitment"]
    assert [event["seq"] for event in export["events"]] == list(
        range(1, export["game"]["version"] + 1)
    )
