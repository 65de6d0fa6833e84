"""The history endpoints: lists, replay steps, exports, the bulk export, import and fork."""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.commands import lobby
from games.commands.lobby import BotSeat, UserSeat
from games.commands.play import game_resign
from games.models import Game, GameEvent
from games.reads import exports
from tests.api.helpers import error_code, game_url
from tests.finished_games import finished_game, play


@pytest.fixture
def finished(alice: User, bob: User) -> Game:
    return finished_game([alice, bob], 17)


def test_my_games_lists_my_result_and_scores(
    as_alice: APIClient, as_bob: APIClient, finished: Game
) -> None:
    mine = as_alice.get("/api/v1/history/", {"scope": "mine"}).json()
    theirs = as_bob.get("/api/v1/history/", {"scope": "mine"}).json()
    row, other = mine["results"][0], theirs["results"][0]
    assert row["id"] == other["id"] == finished.pk
    assert {row["my_result"], other["my_result"]} == {"won", "lost"}
    winner = finished.result["winners"][0]  # type: ignore[index]
    assert row["winner_score"] == finished.result["points"][winner]  # type: ignore[index]
    assert row["my_score"] == finished.result["points"][0]  # type: ignore[index]
    assert row["rounds"] > 0


def test_the_public_list_filters_by_opponent_and_player_count(
    anonymous: APIClient, alice: User, bob: User, finished: Game
) -> None:
    with_bot = finished_game([alice], 5, seats=[UserSeat(alice), BotSeat("random")])
    everything = anonymous.get("/api/v1/history/").json()
    bots = anonymous.get("/api/v1/history/", {"opponent": "random"}).json()
    humans = anonymous.get("/api/v1/history/", {"opponent": "human"}).json()
    three = anonymous.get("/api/v1/history/", {"players": 3}).json()
    assert [row["id"] for row in everything["results"]] == [with_bot.pk, finished.pk]
    assert [row["id"] for row in bots["results"]] == [with_bot.pk]
    assert [row["id"] for row in humans["results"]] == [finished.pk]
    assert three["count"] == 0


def test_mine_needs_a_signed_in_caller_and_bad_filters_are_400(
    anonymous: APIClient, db: None
) -> None:
    assert anonymous.get("/api/v1/history/", {"scope": "mine"}).status_code == 401
    response = anonymous.get("/api/v1/history/", {"players": 9})
    assert response.status_code == 400
    assert error_code(response) == "validation_error"
    assert anonymous.get("/api/v1/history/", {"page": 3}).status_code == 404


def test_a_query_parameter_given_twice_is_refused_not_read_as_its_last_value(
    anonymous: APIClient, finished: Game
) -> None:
    for path in (game_url(finished, "replay/?step=x&step=0"), "/api/v1/history/?limit=5&limit=6"):
        response = anonymous.get(path)
        assert response.status_code == 400, path
        assert error_code(response) == "validation_error"
        name = "step" if "step" in path else "limit"
        assert response.json()["error"]["details"]["fields"] == {
            name: ["Give this parameter once."]
        }


def test_a_replay_step_and_the_same_404_for_a_step_past_the_end(
    anonymous: APIClient, finished: Game
) -> None:
    step = anonymous.get(game_url(finished, "replay/"), {"step": 4}).json()
    assert step["step"] == 4
    assert step["revealed"] is True
    assert step["text"] == step["event"]["text"]
    past = anonymous.get(game_url(finished, "replay/"), {"step": step["last_step"] + 1})
    missing = anonymous.get("/api/v1/games/999999/replay/", {"step": 1})
    assert past.status_code == missing.status_code == 404
    assert past.json()["error"]["code"] == missing.json()["error"]["code"] == "not_found"


def test_a_step_past_the_end_is_named_with_the_last_step_in_the_api(
    anonymous: APIClient, as_carol: APIClient, finished: Game
) -> None:
    last = anonymous.get(game_url(finished, "replay/"), {"step": 0}).json()["last_step"]
    past = anonymous.get(game_url(finished, "replay/"), {"step": 9999})
    message = past.json()["error"]["message"]
    assert f"Game {finished.pk} has no step 9999" in message
    assert f"to {last}, the last one" in message
    body = {"step": 9999, "seats": [{"type": "user"}, {"type": "bot", "level": "greedy"}]}
    fork = as_carol.post(game_url(finished, "fork/"), body, format="json")
    assert fork.status_code == 404
    assert f"to {last}, the last one" in fork.json()["error"]["message"]


def test_every_export_of_a_running_game_is_the_same_409_except_for_staff(
    as_alice: APIClient,
    alice: User,
    bob: User,
    make_user: Callable[..., User],
    client_for: Callable[[User], APIClient],
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=2**50 + 1)  # fmt: skip
    play(game, random.Random(1), moves=6)
    for path in ("export/", "export/notation/", "export/text/"):
        refused = as_alice.get(game_url(game, path))
        assert refused.status_code == 409, path
        assert refused.json()["error"] == {
            "code": "game_not_over",
            "message": f"Game {game.pk} can be exported once it is over.",
            "details": {},
        }
    staff = client_for(make_user("root", is_staff=True))
    for path in ("export/", "export/notation/", "export/text/"):
        exported = staff.get(game_url(game, path))
        assert exported.status_code == 200, path
        assert str(2**50 + 1) not in exported.content.decode(), path
    assert staff.get(game_url(game, "export/notation/")).json()["setup"] is None


def test_export_of_a_private_game_is_the_same_404_as_a_missing_game(
    alice: User, bob: User, make_user: Callable[..., User], client_for: Callable[[User], APIClient]
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, is_public=False)  # fmt: skip
    stranger = client_for(make_user("stranger"))
    for path in ("export/", "export/notation/", "export/text/"):
        hidden = stranger.get(game_url(game, path))
        missing = stranger.get(f"/api/v1/games/{game.pk + 1000}/{path}")
        assert hidden.status_code == missing.status_code == 404
        assert hidden.json()["error"]["code"] == missing.json()["error"]["code"] == "not_found"


def test_export_then_import_through_the_api_gives_the_same_game(
    as_bob: APIClient, finished: Game
) -> None:
    document = as_bob.get(game_url(finished, "export/notation/")).json()
    text = as_bob.get(game_url(finished, "export/text/"))
    assert text["Content-Type"].startswith("text/plain")
    assert "was visited by a noble" in text.content.decode() or "welcomed" in text.content.decode()

    response = as_bob.post("/api/v1/games/import/", document, format="json")

    assert response.status_code == 201
    copy_of = Game.objects.get(pk=response.json()["id"])
    assert copy_of.origin == {"kind": "import"}
    assert copy_of.result == finished.result
    assert copy_of.snapshot == Game.objects.get(pk=finished.pk).snapshot


def test_an_import_that_does_not_replay_is_refused_and_stores_nothing(
    as_bob: APIClient, finished: Game
) -> None:
    document = as_bob.get(game_url(finished, "export/notation/")).json()
    document["moves"][6]["action"] = {"type": "take_gems", "gems": ["gold"]}
    games, events = Game.objects.count(), GameEvent.objects.count()
    response = as_bob.post("/api/v1/games/import/", document, format="json")
    assert response.status_code == 400
    assert error_code(response) == "import_rejected"
    assert response.json()["error"]["message"].startswith("Step 7: ")
    assert (Game.objects.count(), GameEvent.objects.count()) == (games, events)


def test_fork_through_the_api(as_carol: APIClient, finished: Game) -> None:
    body = {"step": 5, "seats": [{"type": "user"}, {"type": "bot", "level": "greedy"}]}
    response = as_carol.post(game_url(finished, "fork/"), body, format="json")
    assert response.status_code == 201
    fork = Game.objects.get(pk=response.json()["id"])
    assert fork.origin == {"kind": "fork", "game": finished.pk, "step": 5}
    wrong = as_carol.post(game_url(finished, "fork/"), {**body, "step": 10_000}, format="json")
    assert wrong.status_code == 404
    three = {**body, "seats": [*body["seats"], {"type": "open"}]}
    assert as_carol.post(game_url(finished, "fork/"), three, format="json").status_code == 409


def test_the_bulk_export_streams_every_finished_public_game_as_gzipped_json_lines(
    anonymous: APIClient, alice: User, bob: User, finished: Game
) -> None:
    hidden = finished_game([alice, bob], 18, is_public=False)
    resigned = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                                 created_by=alice, seed=5)  # fmt: skip
    play(resigned, random.Random(5), moves=7)
    game_resign(game_id=resigned.pk, user=alice)
    response = anonymous.get("/api/v1/exports/games.jsonl.gz")
    assert response.status_code == 200
    assert response.streaming
    lines = gzip.decompress(b"".join(response.streaming_content)).decode().splitlines()
    games = [json.loads(line) for line in lines]
    assert [game["game"] for game in games] == [finished.pk, resigned.pk]
    assert hidden.pk not in {game["game"] for game in games}
    assert games[0]["setup"]["seed"] is not None
    assert games[1]["moves"][-1] == {"seat": 0, "resign": True}
    for line, game in zip(games, Game.objects.filter(is_public=True).order_by("pk"), strict=True):
        assert line == json.loads(json.dumps(exports.game_document_for_viewer(game, None)))


def test_the_bulk_export_can_start_from_a_moment(anonymous: APIClient, finished: Game) -> None:
    url = "/api/v1/exports/games.jsonl.gz"
    later = anonymous.get(url, {"finished_since": "2100-01-01T00:00:00Z"})
    earlier = anonymous.get(url, {"finished_since": "2000-01-01T00:00:00Z"})
    assert gzip.decompress(b"".join(later.streaming_content)) == b""
    assert len(gzip.decompress(b"".join(earlier.streaming_content)).splitlines()) == 1
    assert anonymous.get(url, {"finished_since": "soon"}).status_code == 400
    assert anonymous.get(url, {"colour": "red"}).status_code == 400
