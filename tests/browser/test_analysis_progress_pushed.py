"""An analysis seen arriving on the replay, as a person waits for it: they request it, the page
says it waits for a worker and asks nothing while nothing happens; a real worker starts, and the
moves judged so far, then the graphs and the marks, arrive on the game's push stream without a
poll or a reload. Where no stream can open (WSGI), the panel asks instead, and still gets there."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, Request, expect
from pytest_django.live_server_helper import LiveServer

from analysis import runner, services
from analysis.budget import ANALYSIS_VERSION
from analysis.models import Analysis
from games.models import Game
from testing.synthetic import GamePlan, SeatPlan, write_games
from tests.browser.conftest import log_in
from tests.browser.console import ConsoleWatch
from tests.integration.conftest import StartWorker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANALYSIS_SECONDS = 90
QUIET_SECONDS = 3.0
"""Longer than the panel's old polling period (2 s): a page that still polled would ask."""

RECORD_PROGRESS = """
window.analysisProgressSeen = [];
document.addEventListener("DOMContentLoaded", () => {
  const note = () => {
    const shown = document.querySelector("[data-analysis-progress]");
    const text = shown ? shown.textContent.trim() : "";
    if (text && window.analysisProgressSeen.at(-1) !== text) {
      window.analysisProgressSeen.push(text);
    }
  };
  note();
  new MutationObserver(note).observe(document.body, {
    subtree: true, childList: true, characterData: true,
  });
});
"""
"""Every progress text the page shows, in order: a state shown for a moment is kept too."""


def wait_for(condition: Callable[[], bool], page: Page, *, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        page.wait_for_timeout(100)


@pytest.mark.postgres
@pytest.mark.redis
def test_progress_then_the_graph_arrive_on_the_replay_by_push(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
    start_worker: StartWorker,
    celery_broker: str,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.REDIS_URL = celery_broker  # the server hears on the channels the worker publishes
    settings.ANALYSIS_BUDGET_SCALE = 0.02  # one sample a Duel position: seconds for a game
    monkeypatch.setattr(services, "new_seed", lambda: 27)
    alice, bob = make_player("alice"), make_player("bob")
    seats = [SeatPlan(user_id=alice.pk), SeatPlan(user_id=bob.pk)]
    (game_id,) = write_games([GamePlan(seats=seats, seed=21, variant="duel")])
    context = new_context()
    watch = ConsoleWatch.on(context)
    context.add_init_script(RECORD_PROGRESS)
    page = context.new_page()
    panel_asked: list[str] = []

    def note_panel_request(request: Request) -> None:
        if "/analysis/panel/" in request.url:
            panel_asked.append(request.url)

    page.on("request", note_panel_request)
    log_in(page, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{game_id}/replay/?step=3")

    page.click("[data-analysis-request]")  # queued on the broker: no worker is up yet

    expect(page.locator("[data-analysis-progress]")).to_have_text("Waiting for a worker…")
    expect(page.locator("[hx-trigger*=every]")).to_have_count(0)
    # The panel asks once, when the stream says it listens; then nothing while nothing happens.
    wait_for(lambda: len(panel_asked) == 1, page, seconds=10, what="the stream opens")
    page.wait_for_timeout(QUIET_SECONDS * 1000)
    assert len(panel_asked) == 1, f"the panel asked without news: {panel_asked}"
    page.evaluate("window.sameDocument = true")

    start_worker()

    expect(page.locator("[data-analysis-graph]")).to_have_count(2, timeout=ANALYSIS_SECONDS * 1000)
    seen = page.evaluate("window.analysisProgressSeen")
    assert seen[0] == "Waiting for a worker…"
    judged = [text for text in seen if re.fullmatch(r"Analysing: move \d+ of \d+…", text)]
    assert judged, f"no progress was shown on the way: {seen}"
    assert page.evaluate("window.sameDocument") is True, "the page was reloaded"
    expect(page.locator(".replay-moves .analysis-move-mark").first).to_be_visible()
    expect(page.locator("#analysis[sse-connect]")).to_have_count(0)  # its stream is closed
    assert not watch.problems(), watch.problems()


def test_where_the_stream_cannot_open_the_panel_asks_until_the_analysis_is_done(
    live_server: LiveServer,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
    settings: Any,
) -> None:
    """Under WSGI (``live_server``) the stream is refused: the panel asks for its progress every
    couple of seconds instead, as a game page asks for its version."""
    settings.ANALYSIS_BUDGET_SCALE = 0.02
    alice, bob = make_player("alice"), make_player("bob")
    seats = [SeatPlan(user_id=alice.pk), SeatPlan(user_id=bob.pk)]
    (game_id,) = write_games([GamePlan(seats=seats, seed=21)])
    game = Game.objects.get(pk=game_id)
    budget, key = services.current_settings(game)
    analysis = Analysis.objects.create(  # as a request leaves it for a worker
        game=game, version=ANALYSIS_VERSION, settings_key=key, budget=budget, seed=27
    )
    page = new_context().new_page()
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game_id}/replay/")
    expect(page.locator("[data-analysis-progress]")).to_have_text("Waiting for a worker…")
    page.evaluate("window.sameDocument = true")

    assert runner.run_analysis(analysis.pk) == "done"  # the worker, here

    expect(page.locator("[data-analysis-graph]")).to_have_count(2)
    assert page.evaluate("window.sameDocument") is True, "the page was reloaded"
