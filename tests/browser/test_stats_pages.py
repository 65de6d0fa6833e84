"""The statistics pages in Chromium: the overview shows its charts and tables, a filter link
swaps the numbers in place (htmx) and keeps a shareable URL, a table sorts by a column, and a
card's link opens the card's page; all under the Content-Security-Policy (``new_context``
fails the test on any violation)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from analytics import projections
from testing import synthetic
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START = datetime(2026, 7, 1, 12, tzinfo=UTC)


def test_the_statistics_page_filters_sorts_and_leads_to_a_card(
    live_server: object, new_context: Callable[..., BrowserContext]
) -> None:
    bot = synthetic.SeatPlan(bot_level="random")
    plans = [synthetic.GamePlan(seats=[bot, bot], seed=seed) for seed in (1, 2)]
    plans.append(synthetic.GamePlan(seats=[bot, bot, bot], seed=3))
    synthetic.write_games(plans, start=START)
    assert projections.rebuild() == 3
    base = str(live_server.url)  # type: ignore[attr-defined]

    page = new_context().new_page()
    page.goto(f"{base}/stats/")
    expect(page.locator("h1")).to_have_text("Statistics")
    summary = page.locator(".stats-summary")
    expect(summary).to_contain_text("3 finished games")
    charts = page.locator("figure.stats-chart svg.pygal-chart")
    expect(charts).to_have_count(6)
    expect(charts.first).to_be_visible()
    # The bars themselves show (a rule hiding pygal's tooltip triggers once hid them all).
    expect(charts.first.locator(".bar.gem-blue rect").first).to_be_visible()
    level_one = page.locator("#cards-splendor table.stats-table").first
    expect(level_one.locator("tbody tr")).to_have_count(40)

    # A filter is a link: htmx swaps the body in place and the address keeps the filter.
    page.get_by_role("navigation", name="Filters").get_by_role("link", name="3", exact=True).click()
    expect(page).to_have_url(re.compile(r"/stats/\?players=3$"))
    expect(summary).to_contain_text("1 finished game,")
    expect(charts.first).to_be_visible()
    expect(page.get_by_role("link", name="3", exact=True)).to_have_attribute("aria-current", "true")
    seats = page.locator(
        "table.stats-table", has=page.get_by_role("button", name="player", exact=True)
    )
    expect(seats.locator("tbody tr")).to_have_count(3)

    # Sorting a table by a column, most bought first.
    bought = level_one.get_by_role("button", name="Bought", exact=True)
    bought.click()
    bought.click()
    header = level_one.locator("th", has=page.get_by_role("button", name="Bought", exact=True))
    expect(header).to_have_attribute("aria-sort", "descending")
    counts = [int(text) for text in level_one.locator("tbody tr td:nth-child(6)").all_inner_texts()]
    assert counts == sorted(counts, reverse=True)
    assert counts[0] > 0

    # The most bought card's link opens its page, with the filter kept.
    level_one.locator("tbody tr").first.get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/stats/cards/splendor/\d+/\?players=3$"))
    expect(page.locator("h1")).to_contain_text(re.compile(r"Splendor card L1 [WBGRK]\d "))
    expect(page.get_by_role("heading", name="Is it worth buying?")).to_be_visible()
    expect(page.locator(".stats-verdict")).to_contain_text("Players who bought it won")


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize(
    "path", ["/stats/", "/stats/?variant=duel", "/stats/leaderboard/", "/games/finished/"]
)
def test_on_a_phone_the_tables_scroll_inside_the_page_and_the_page_fits_the_screen(
    live_server: object, new_context: Callable[..., BrowserContext], path: str
) -> None:
    bot = synthetic.SeatPlan(bot_level="random")
    synthetic.write_games(
        [synthetic.GamePlan(seats=[bot, bot, bot], seed=seed) for seed in (1, 2)], start=START
    )
    projections.rebuild()
    page = new_context(viewport=PHONE).new_page()

    page.goto(f"{live_server.url}{path}")  # type: ignore[attr-defined]

    expect(page.locator("table").first).to_be_visible()
    # A table wider than the screen scrolls in its own box; the page never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_statistics_page_at_1366_has_legible_charts_and_a_clean_console(
    live_server: object, new_context: Callable[..., BrowserContext]
) -> None:
    bot = synthetic.SeatPlan(bot_level="random")
    synthetic.write_games(
        [synthetic.GamePlan(seats=[bot, bot], seed=seed) for seed in (4, 5)], start=START
    )
    assert projections.rebuild() == 2
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/stats/")  # type: ignore[attr-defined]
    expect(page.locator(".stats-summary")).to_contain_text("2 finished games")
    # Labels drawn at 11 px or more on screen: the chart is not shrunk below its own size.
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('svg.pygal-chart text')]"
        ".filter(t => t.getBBox().width > 0)"
        ".map(t => parseFloat(getComputedStyle(t).fontSize)"
        " * t.ownerSVGElement.getBoundingClientRect().width"
        " / t.ownerSVGElement.viewBox.baseVal.width))"
    )
    assert smallest >= 11
    page.get_by_role("navigation", name="Sections").get_by_role("link", name="Seats").click()
    expect(page).to_have_url(re.compile(r"/stats/#seats$"))
    screenshot(page, "statistics-1366x768")
    assert not errors


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, PHONE])
def test_a_player_of_both_games_reads_each_apart_on_a_laptop_and_a_phone(
    live_server: object,
    new_context: Callable[..., BrowserContext],
    make_user: Callable[[str], Any],
    viewport: dict[str, int],
) -> None:
    ann = make_user("ann")
    bot, seat = synthetic.SeatPlan(bot_level="random"), synthetic.SeatPlan(user_id=ann.pk)
    plans = [
        synthetic.GamePlan(seats=[seat, bot], seed=seed, variant=variant)
        for variant in ("splendor", "duel")
        for seed in (1, 2)
    ]
    synthetic.write_games(plans, start=START)
    projections.rebuild()
    page = new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/stats/players/{ann.pk}/")  # type: ignore[attr-defined]

    sections = page.locator("section.player-game")
    expect(sections).to_have_count(2)
    expect(sections.nth(0).get_by_role("heading", level=2)).to_have_text("Splendor")
    expect(sections.nth(1).get_by_role("heading", level=2)).to_have_text("Splendor Duel")
    for index, variant in enumerate(("splendor", "duel")):
        cards = sections.nth(index).locator(".player-cards a")
        expect(cards.first).to_be_visible()
        for href in cards.evaluate_all("links => links.map(link => link.pathname)"):
            assert href.startswith(f"/stats/cards/{variant}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    size = f"{viewport['width']}x{viewport['height']}"
    screenshot(page, f"player-both-games-{size}")

    # Duel's statistics on the same screen: the players by who moved first, no "seat 1".
    page.goto(f"{live_server.url}/stats/?variant=duel")  # type: ignore[attr-defined]
    expect(page.locator("#seats h2")).to_have_text("Win rate by who moved first")
    expect(page.locator("#seats")).not_to_contain_text("seat 1", ignore_case=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"statistics-duel-{size}")
    assert not errors
