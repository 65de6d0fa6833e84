"""Analysis of a finished game in a real browser: request it from the replay, see the graph and
the marks, jump to a marked step and find the fork to try the better move; both games, on a
laptop's and a phone's screen, with no console error, CSP violation or serious axe finding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from analysis import services
from analysis.models import Analysis
from games.models import Game
from testing.synthetic import GamePlan, SeatPlan, write_games
from tests.browser.accessibility import blocking_violations, describe_violations
from tests.browser.conftest import log_in, screenshot
from tests.browser.console import ConsoleWatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANALYSIS_SECONDS = 90
"""Room for a whole game's analysis at the tests' budget on a loaded machine (a few seconds)."""
SCREENS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(autouse=True)
def small_analysis_budget(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.ANALYSIS_BUDGET_SCALE = 0.02
    monkeypatch.setattr(services, "new_seed", lambda: 27)  # the same marked moves every run


@pytest.mark.parametrize(("variant", "screen"), [("splendor", "laptop"), ("duel", "phone")])
def test_a_player_requests_an_analysis_and_studies_a_marked_move(
    new_context: Callable[..., BrowserContext],
    live_server: LiveServer,
    make_player: Callable[[str], User],
    variant: str,
    screen: str,
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    seats = [SeatPlan(user_id=alice.pk), SeatPlan(user_id=bob.pk)]
    (game_id,) = write_games([GamePlan(seats=seats, seed=21, variant=variant)])
    assert Game.objects.get(pk=game_id).status == "finished"
    context = new_context(viewport=SCREENS[screen])
    watch = ConsoleWatch.on(context)
    page = context.new_page()
    log_in(page, live_server.url, "alice")

    page.goto(f"{live_server.url}/games/{game_id}/replay/?step=3")
    expect(page.locator("[data-analysis-graph]")).to_have_count(0)
    # The task runs in-process, as the tests configure: the answer waits for the whole analysis.
    page.click("[data-analysis-request]", timeout=ANALYSIS_SECONDS * 1000)

    expect(page.locator("[data-analysis-graph]")).to_have_count(2)
    expect(page.locator("#replay-stage")).to_have_attribute("data-step", "3")
    analysis = Analysis.objects.get(game_id=game_id)
    marked = [row for row in analysis.steps if row["mark"] and row["preferred"]]
    assert marked, "a random game has moves worth marking"
    first = marked[0]
    # The marks stand beside their moves in the move list.
    expect(
        page.locator(f".replay-moves a[data-step='{first['step']}'] .analysis-move-mark")
    ).to_have_count(1)
    screenshot(page, f"analysis-{variant}-{screen}")

    # A point of the graph jumps to its step, where the preferred move and the fork are.
    page.locator(f"[data-analysis-graph] a[data-step='{first['step']}']").first.click()
    expect(page.locator("#replay-stage")).to_have_attribute("data-step", str(first["step"]))
    step_note = page.locator("[data-analysis-step]")
    expect(step_note).to_contain_text(first["preferred_text"])
    fork = page.locator("[data-analysis-fork]")
    expect(fork).to_have_text("Try it: fork from here")
    fork.click()
    expect(page).to_have_url(f"{live_server.url}/games/{game_id}/fork/?step={first['step'] - 1}")

    page.goto(f"{live_server.url}/games/{game_id}/replay/?step={first['step']}")
    violations = blocking_violations(page)
    assert not violations, describe_violations(violations)
    assert not watch.problems(), watch.problems()
