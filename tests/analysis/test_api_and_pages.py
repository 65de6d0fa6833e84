"""The analysis through the API and on the pages: 202 with a location, the same analysis when
asked again, 429 past the cap, nothing for a running game, nothing hidden in the JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from analysis import services
from analysis.models import Analysis, AnalysisStatus
from games.models import Game
from games.vocabulary import Status
from testing.synthetic import GamePlan, SeatPlan, write_games

pytestmark = pytest.mark.django_db

CaptureCommits = Callable[..., object]


def _api_as(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _running_game(alice: User, bob: User) -> Game:
    plan = GamePlan(
        seats=[SeatPlan(user_id=alice.pk), SeatPlan(user_id=bob.pk)],
        seed=8,
        finish=False,
        stop_at_turn=10,
    )
    (game_id,) = write_games([plan])
    return Game.objects.get(pk=game_id, status=Status.ACTIVE)


def test_the_api_refuses_a_running_games_analysis(alice: User, bob: User) -> None:
    game = _running_game(alice, bob)
    url = f"/api/v1/games/{game.pk}/analysis/"
    asked = _api_as(alice).post(url)
    read = _api_as(bob).get(url)
    assert asked.status_code == read.status_code == 409
    assert asked.json()["error"]["code"] == "game_not_over"
    assert not Analysis.objects.exists()


def test_the_api_queues_an_analysis_then_serves_it(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: CaptureCommits,
) -> None:
    game = finished_game_of(alice, bob)
    url = f"/api/v1/games/{game.pk}/analysis/"
    client = _api_as(alice)
    assert client.get(url).status_code == 404
    with django_capture_on_commit_callbacks(execute=False) as queued:  # type: ignore[attr-defined]
        asked = client.post(url)
        again = _api_as(bob).post(url)
    assert asked.status_code == again.status_code == 202
    assert asked["Location"] == again["Location"] == url
    assert asked.json()["status"] == "queued"
    assert len(queued) == 1
    queued[0]()  # the worker runs it
    done = client.get(url)
    assert done.status_code == 200
    body = done.json()
    assert body["status"] == "done"
    assert body["steps_done"] == body["steps_total"] == len(body["steps"])
    assert client.post(url).status_code == 200  # done: asked again, nothing new
    assert Analysis.objects.count() == 1


def test_anonymous_may_read_but_not_ask(
    alice: User, bob: User, finished_game_of: Callable[..., Game]
) -> None:
    game = finished_game_of(alice, bob)
    url = f"/api/v1/games/{game.pk}/analysis/"
    assert APIClient().post(url).status_code == 401
    assert APIClient().get(url).status_code == 404


def test_past_the_cap_the_api_answers_429_with_the_reason(
    alice: User, bob: User, finished_game_of: Callable[..., Game]
) -> None:
    client = _api_as(alice)
    games = [finished_game_of(alice, bob, seed=seed) for seed in range(4)]
    for game in games[:3]:
        assert client.post(f"/api/v1/games/{game.pk}/analysis/").status_code in (200, 202)
    refused = client.post(f"/api/v1/games/{games[3].pk}/analysis/")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "limit_reached"
    assert "in the last hour" in refused.json()["error"]["message"]


def test_the_analysis_json_holds_no_seed_and_no_hidden_card(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: CaptureCommits,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(services, "new_seed", lambda: 3_141_592_653_589)  # one to look for
    game = finished_game_of(alice, bob, seed=12)
    url = f"/api/v1/games/{game.pk}/analysis/"
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        _api_as(alice).post(url)
    body = _api_as(bob).get(url).json()
    analysis = Analysis.objects.get()
    text = json.dumps(body)
    assert str(analysis.seed) not in text
    for secret in ("seed", "salt", "setup", "decks", "deck_order", "commitment"):
        assert f'"{secret}"' not in text
    for row in body["steps"]:
        assert set(row) == {
            "step", "mover", "before", "after", "drop", "mark",
            "played", "played_text", "preferred", "preferred_text",
        }  # fmt: skip


def test_the_replay_of_a_running_game_offers_no_analysis_and_the_page_refuses_one(
    alice: User, bob: User
) -> None:
    game = _running_game(alice, bob)
    client = Client()
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/replay/?step=3")
    assert page.status_code == 200
    assert b"Request analysis" not in page.content
    assert b"data-analysis-panel" not in page.content
    refused = client.post(f"/games/{game.pk}/analysis/")
    assert refused.status_code == 409
    assert b"only a finished game can be analysed" in refused.content
    assert client.get(f"/games/{game.pk}/analysis/panel/").status_code == 409
    assert not Analysis.objects.exists()


def test_the_replay_offers_an_analysis_then_shows_graphs_marks_and_the_fork(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: CaptureCommits,
) -> None:
    game = finished_game_of(alice, bob, seed=21)
    client = Client()
    client.force_login(alice)
    before = client.get(f"/games/{game.pk}/replay/")
    assert b"Request analysis" in before.content
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        asked = client.post(f"/games/{game.pk}/analysis/", {"step": "4"})
    assert asked.status_code == 303
    assert asked["Location"] == f"/games/{game.pk}/replay/?step=4#analysis"
    analysis = Analysis.objects.get()
    assert analysis.status == AnalysisStatus.DONE
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert page.count("data-analysis-graph") == 2
    assert "Request analysis" not in page
    assert "style=" not in page
    assert "<script>" not in page
    # A marked move: its step shows the preferred move and the fork from the position before.
    marked = next(row for row in analysis.steps if row["mark"] and row["preferred"])
    stage = client.get(f"/games/{game.pk}/replay/?step={marked['step']}").content.decode()
    assert "Better: " in stage
    assert marked["preferred_text"] in stage
    assert f"/games/{game.pk}/fork/?step={marked['step'] - 1}" in stage
    assert "Try it: fork from here" in stage


def test_the_panel_listens_to_the_games_stream_while_the_analysis_runs(
    alice: User, bob: User, finished_game_of: Callable[..., Game]
) -> None:
    game = finished_game_of(alice, bob)
    client = Client()
    client.force_login(alice)
    client.post(f"/games/{game.pk}/analysis/")  # queued: the test's commit never comes
    Analysis.objects.update(status=AnalysisStatus.RUNNING, steps_done=5, steps_total=40)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert f'sse-connect="/games/{game.pk}/events?version={game.version}"' in page
    assert 'hx-trigger="sse:listening, sse:analysis, analysis-fallback"' in page
    assert "every" not in page.split('id="analysis"')[1]  # no polling trigger in the panel
    assert "move 5 of 40" in page

    # Asked again by the stream's news, a running analysis answers its progress alone, swapped
    # into the panel that keeps its stream open.
    Analysis.objects.update(steps_done=10)
    progress = client.get(f"/games/{game.pk}/analysis/panel/", headers={"HX-Request": "true"})
    assert "move 10 of 40" in progress.content.decode()
    assert b"sse-connect" not in progress.content
    assert "HX-Retarget" not in progress

    # Once done, the whole panel replaces the listening one, and with it its stream.
    Analysis.objects.update(status=AnalysisStatus.DONE, steps=[], steps_done=40)
    done = client.get(f"/games/{game.pk}/analysis/panel/", headers={"HX-Request": "true"})
    assert (done["HX-Retarget"], done["HX-Reswap"]) == ("#analysis", "outerHTML")
    assert "sse-connect" not in done.content.decode()
    assert "hx-trigger" not in done.content.decode()
    assert "No move lost enough to be marked" in done.content.decode()


def test_a_stalled_analysis_says_so_and_a_post_or_the_page_starts_it_over(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: CaptureCommits,
    settings: Any,
) -> None:
    game = finished_game_of(alice, bob)
    client = Client()
    client.force_login(alice)
    client.post(f"/games/{game.pk}/analysis/")  # queued: the test's commit never comes
    silent_since = timezone.now() - timedelta(seconds=settings.ANALYSIS_STALLED_AFTER_SECONDS + 60)
    Analysis.objects.update(status=AnalysisStatus.RUNNING, steps_done=20, progress_at=silent_since)

    assert _api_as(bob).get(f"/api/v1/games/{game.pk}/analysis/").json()["stalled"] is True
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "This analysis stopped: nothing has been heard from its worker for 6" in page
    assert "Request analysis" in page
    assert "sse-connect" not in page  # nothing to listen for

    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        answer = _api_as(bob).post(f"/api/v1/games/{game.pk}/analysis/")
    assert answer.status_code == 202
    assert (answer.json()["status"], answer.json()["stalled"]) == ("queued", False)
    done = _api_as(bob).get(f"/api/v1/games/{game.pk}/analysis/").json()
    assert done["status"] == "done"
    assert done["steps_done"] == done["steps_total"] > 20


def test_a_players_page_lists_their_marked_moves_with_replay_and_fork_links(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: CaptureCommits,
) -> None:
    game = finished_game_of(alice, bob, seed=21)
    client = Client()
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        client.post(f"/games/{game.pk}/analysis/")
    analysis = Analysis.objects.get()
    seat = game.seats.get(user=alice).index
    mine = [row for row in analysis.steps if row["mover"] == seat and row["mark"]]
    theirs = [row for row in analysis.steps if row["mover"] != seat and row["mark"]]
    assert mine, "the fixture game should hold a marked move of alice's"
    page = client.get(f"/players/{alice.username}/").content.decode()
    assert "Your mistakes" in page
    for row in mine:
        assert f'/games/{game.pk}/replay/?step={row["step"]}"' in page
        assert f'/games/{game.pk}/fork/?step={row["step"] - 1}"' in page
    for row in theirs:
        if not any(other["step"] == row["step"] - 1 for other in mine):
            assert f'/games/{game.pk}/fork/?step={row["step"] - 1}"' not in page
    other = Client().get(f"/players/{alice.username}/").content.decode()
    assert "Your mistakes" not in other
    assert "Marked moves" in other
