"""The history pages: lists, player pages, the replay viewer, downloads, upload and fork."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.commands.lobby import BotSeat, UserSeat
from games.models import Game, GameEvent
from games.reads import exports, timeline
from tests.finished_games import finished_game

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.fixture
def finished(alice: User, bob: User) -> Game:
    return finished_game([alice, bob], 17)


def test_my_games_shows_my_result_and_both_scores(
    alice_client: Client, bob_client: Client, finished: Game
) -> None:
    result = finished.result or {}
    winner = result["winners"][0]
    mine = alice_client.get("/games/mine/").content.decode()
    theirs = bob_client.get("/games/mine/").content.decode()
    words = {0: ("won", "lost"), 1: ("lost", "won")}[winner]
    assert f"result--{words[0]}" in mine
    assert f"result--{words[1]}" in theirs
    assert f"<td>{result['points'][0]}</td>" in mine
    assert f"<td>{result['points'][winner]}</td>" in mine


def test_lists_are_paginated_and_filtered(alice_client: Client, alice: User, bob: User) -> None:
    against_bot = finished_game([alice], 3, seats=[UserSeat(alice), BotSeat("random")])
    against_bob = finished_game([alice, bob], 4)
    page = alice_client.get("/games/mine/", {"opponent": "random"}).content.decode()
    assert f'data-game="{against_bot.pk}"' in page
    assert f'data-game="{against_bob.pk}"' not in page
    assert alice_client.get("/games/mine/", {"page": 2}).status_code == 404
    assert alice_client.get("/games/mine/", {"players": 7}).status_code == 400
    assert alice_client.get("/games/mine/", {"since": "yesterday"}).status_code == 400


def test_the_lobby_and_home_link_to_the_full_lists(alice_client: Client, finished: Game) -> None:
    lobby = alice_client.get("/lobby/").content.decode()
    home = alice_client.get("/").content.decode()
    assert 'href="/games/finished/"' in lobby
    assert 'href="/games/mine/"' in lobby
    assert 'href="/games/mine/"' in home


def test_a_player_page_lists_their_finished_public_games(
    client: Client, alice: User, bob: User, finished: Game
) -> None:
    private = finished_game([alice, bob], 18, is_public=False)
    page = client.get("/players/alice/").content.decode()
    assert f'data-game="{finished.pk}"' in page
    assert f'data-game="{private.pk}"' not in page
    assert 'id="player-stats"' in page
    assert client.get("/players/nobody/").status_code == 404


def test_the_replay_shows_the_step_and_its_words(client: Client, finished: Game) -> None:
    step = timeline.replay_step_for_viewer(finished, None, 5)
    page = client.get(f"/games/{finished.pk}/replay/", {"step": 5}).content.decode()
    assert f"Step 5 of {step['last_step']}" in page
    assert step["text"] in page
    assert 'href="?step=6"' in page
    assert 'aria-current="step"' in page
    assert "The shuffle, revealed" in page


def test_with_htmx_only_the_stage_comes_back(client: Client, finished: Game) -> None:
    response = client.get(f"/games/{finished.pk}/replay/", {"step": 2}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.strip().startswith('<div id="replay-stage"')
    assert "<html" not in body
    assert "replay-moves" not in body


@pytest.mark.parametrize("step", ["9999", "-1", "x", "1.5"])
def test_a_bad_step_is_the_same_404_as_a_missing_game(
    client: Client, finished: Game, step: str
) -> None:
    response = client.get(f"/games/{finished.pk}/replay/", {"step": step})
    missing = client.get("/games/999999/replay/", {"step": "1"})
    assert response.status_code == missing.status_code == 404
    assert str(finished.pk) in response.content.decode()


def test_a_step_number_read_in_the_history_is_that_step_in_the_replay(
    client: Client, finished: Game
) -> None:
    history = client.get(f"/games/{finished.pk}/history/").content.decode()
    numbered = re.findall(
        r'<span class="history-seq">(\d+)</span> <span><a href="[^"]*\?step=(\d+)"', history
    )
    assert len(numbered) > 10
    for shown, linked in numbered:
        assert shown == linked
    shown = numbered[-1][0]
    replay = client.get(f"/games/{finished.pk}/replay/", {"step": shown})
    assert replay.status_code == 200
    assert f"Step {shown} of {shown}" in replay.content.decode()


@pytest.mark.parametrize("step", ["9999", "x"])
def test_a_step_past_the_end_names_the_last_step_not_a_missing_game(
    client: Client, finished: Game, step: str
) -> None:
    last = timeline.replay_step_for_viewer(finished, None, 0)["last_step"]
    page = client.get(f"/games/{finished.pk}/replay/", {"step": step})
    assert page.status_code == 404
    words = page.content.decode()
    assert f"to {last}, the last one" in words
    assert "There is no game" not in words


def test_a_private_games_replay_is_a_404_to_others(
    carol_client: Client, bob_client: Client, alice: User, bob: User
) -> None:
    private = finished_game([alice, bob], 19, is_public=False)
    assert carol_client.get(f"/games/{private.pk}/replay/").status_code == 404
    assert bob_client.get(f"/games/{private.pk}/replay/").status_code == 200


def test_the_history_tells_of_a_nobles_automatic_visit(
    client: Client, alice: User, bob: User
) -> None:
    for seed in range(10, 40):
        game = finished_game([alice, bob], seed)
        if any(event["consequences"] for event in timeline.game_events_in_words(game, None)):
            break
    page = client.get(f"/games/{game.pk}/history/").content.decode()
    assert re.search(r"(alice|bob) was visited by a noble: \+3\.", page)


def test_downloads_of_a_finished_game(client: Client, finished: Game) -> None:
    document = client.get(f"/games/{finished.pk}/export.json")
    text = client.get(f"/games/{finished.pk}/export.txt")
    assert "attachment" in document["Content-Disposition"]
    assert json.loads(document.content)["moves"]
    assert text["Content-Type"].startswith("text/plain")
    assert "The game is over" in text.content.decode()
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert f"/games/{finished.pk}/export.json" in page


def test_the_download_of_a_running_game_is_a_409_as_in_the_api(
    alice_client: Client, two_player_game: Game
) -> None:
    for kind in ("json", "txt"):
        page = alice_client.get(f"/games/{two_player_game.pk}/export.{kind}")
        api = alice_client.get(f"/api/v1/games/{two_player_game.pk}/export/notation/")
        assert page.status_code == api.status_code == 409
        assert "once it is over" in page.content.decode()


def _upload(client: Client, content: bytes, content_type: str = "application/json") -> str:
    upload = SimpleUploadedFile("game.json", content, content_type=content_type)
    response = client.post("/games/import/", {"file": upload, "is_public": "on"})
    assert response.status_code == 400
    return response.content.decode()


@pytest.mark.parametrize(
    ("content", "content_type", "message"),
    [
        (b" " * (5 * 1024 * 1024 + 1), "application/json", "larger than 5 MB"),
        (b"\x89PNG\r\n", "image/png", "JSON text, not image/png"),
        (b"\xff\xfe\x00", "application/json", "not UTF-8"),
        (b"{not json", "application/json", "not valid JSON"),
    ],
)
def test_a_bad_upload_gets_a_clear_error_and_stores_nothing(
    alice_client: Client, content: bytes, content_type: str, message: str
) -> None:
    assert message in _upload(alice_client, content, content_type)
    assert Game.objects.count() == 0


def test_an_upload_that_does_not_replay_names_the_first_bad_step(
    alice_client: Client, finished: Game
) -> None:
    document = exports.game_document_for_viewer(finished, None)
    document["moves"] = document["moves"][:10]
    events = GameEvent.objects.count()
    page = _upload(alice_client, json.dumps(document).encode())
    assert "Step 11: the file ends before the game is over" in page
    assert GameEvent.objects.count() == events


def test_an_upload_that_replays_is_stored_as_imported(alice_client: Client, finished: Game) -> None:
    document = exports.game_document_for_viewer(finished, None)
    upload = SimpleUploadedFile("g.json", json.dumps(document).encode(), "application/json")
    response = alice_client.post("/games/import/", {"file": upload})
    imported = Game.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 303
    assert response["Location"] == f"/games/{imported.pk}/replay/"
    assert imported.origin == {"kind": "import"}
    assert imported.is_public is False


def test_the_import_page_needs_a_signed_in_user(client: Client, db: None) -> None:
    assert client.get("/games/import/").status_code == 302


def test_fork_from_a_step_against_a_bot(carol_client: Client, finished: Game) -> None:
    form = carol_client.get(f"/games/{finished.pk}/fork/", {"step": 8})
    assert form.status_code == 200
    response = carol_client.post(
        f"/games/{finished.pk}/fork/", {"step": "8", "seat_1": "bot:random", "is_public": "on"}
    )
    fork = Game.objects.get(origin__kind="fork")
    assert response.status_code == 303
    assert response["Location"] == f"/games/{fork.pk}/"
    assert fork.origin == {"kind": "fork", "game": finished.pk, "step": 8}
    assert carol_client.get(f"/games/{finished.pk}/fork/", {"step": 9999}).status_code == 404


def test_new_templates_carry_no_inline_script_or_style() -> None:
    paths = [
        *TEMPLATES.joinpath("games", "history").glob("*.html"),
        *TEMPLATES.joinpath("games", "replay").glob("*.html"),
        TEMPLATES / "games" / "partials" / "shuffle.html",
    ]
    assert paths
    for path in paths:
        text = path.read_text()
        assert "style=" not in text, path
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), path
        assert not re.search(r"\son[a-z]+=", text), path


def test_a_finished_games_last_round_is_the_same_on_its_page_and_in_my_games(
    alice_client: Client, finished: Game
) -> None:
    page = alice_client.get(f"/games/{finished.pk}/").content.decode()
    shown = re.search(r"<span>Round (\d+)</span>", page)
    assert shown is not None
    mine = alice_client.get("/games/mine/").content.decode()
    row = re.search(rf'data-game="{finished.pk}".*?</tr>', mine, re.S)
    assert row is not None
    cells = re.findall(r"<td>(\d+)</td>", row.group(0))
    assert cells[-1] == shown.group(1)
    assert int(shown.group(1)) * 2 == (finished.snapshot or {})["turn"]
