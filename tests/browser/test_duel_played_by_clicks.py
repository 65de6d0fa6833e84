"""A Splendor Duel against a bot, played to its end by clicks on the table at 1366×768: cards
bought by clicking them, lines of tokens picked on the board, and the decisions of their own
(a royal, a colour, tokens put back) by their buttons. Both players' panels, the board and the
pyramid stay in view the whole game; no console error, no CSP violation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games.commands import lobby
from games.commands.lobby import BotSeat, UserSeat
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_duel_one_screen import PANELS, watch_errors
from tests.browser.test_one_screen import boxes_outside_the_viewport

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_TURNS = 150
IN_VIEW = ["#region-board .duel-grid", "#region-pyramid .deck", PANELS,
           "#region-players .duel-colours"]  # fmt: skip
HEADLINE = re.compile(r"^(Your turn|Game over)")


def version_shown(page: Page) -> str:
    return page.locator("#region-status").get_attribute("data-version") or ""


def parts_outside_the_viewport(page: Page) -> list[str]:
    """The table's parts out of view, once the page has drawn the regions it is swapping in
    (a pushed version can be landing while the test looks)."""
    for _attempt in range(20):
        try:
            return boxes_outside_the_viewport(page, IN_VIEW)
        except AssertionError:  # a region was being replaced: look again
            page.wait_for_timeout(100)
    return boxes_outside_the_viewport(page, IN_VIEW)


def buy_a_card(page: Page) -> bool:
    """Click the first card that offers Buy (the pyramid's or my reserve's), then Buy."""
    cards = page.locator(".card.has-actions:has(.btn-buy)")
    if not cards.count():
        return False
    card = cards.first
    card.click()
    card.locator(".card-actions .btn-buy").first.click()
    return True


def take_a_line(page: Page) -> bool:
    """Pick the longest legal line on the board token by token, then take it."""
    form = page.locator(".duel-line-form")
    if not form.count() or not form.is_visible():
        return False
    lines = json.loads(form.get_attribute("data-lines") or "[]")
    if not lines:
        return False
    line = max(lines, key=lambda item: len(item["spaces"]))
    for space in line["spaces"]:
        page.locator(f".duel-token[data-space='{space}']").click()
    page.locator(".duel-line-take").click()
    return True


def decide(page: Page) -> None:
    """Any other move: the first button of the decision's first list (open it if closed)."""
    choices = page.locator(".decision details.duel-choices").first
    if choices.get_attribute("open") is None:
        choices.locator("summary").click()
    choices.locator("form button").first.click()


def test_a_duel_is_played_to_its_end_by_clicks_with_both_panels_in_view(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    dora = make_player("dora")
    game = lobby.game_create(variant="duel", seats=[UserSeat(dora), BotSeat("greedy")],
                             created_by=dora, seed=4)  # fmt: skip
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    errors = watch_errors(page)
    log_in(page, asgi_server, "dora")
    page.goto(f"{asgi_server}/games/{game.pk}/")

    kinds: set[str] = set()
    for _turn in range(MOST_TURNS):
        expect(page.locator(".headline")).to_have_text(HEADLINE)
        if page.locator(".headline").inner_text() == "Game over":
            break
        # Decisions of their own open above the table; the main moves' lists stay closed.
        if not page.locator(".decision details.duel-choices[open]").count():
            assert parts_outside_the_viewport(page) == []
        before = version_shown(page)
        if page.locator(".decision details.duel-choices[open]").count():
            decide(page)
            kinds.add("decision")
        elif buy_a_card(page):
            kinds.add("buy")
        elif take_a_line(page):
            kinds.add("line")
        else:
            decide(page)
            kinds.add("decision")
        expect(page.locator("#region-status")).not_to_have_attribute("data-version", before)
    else:
        pytest.fail(f"the game did not end within {MOST_TURNS} of dora's moves")

    game.refresh_from_db()
    assert game.status == "finished"
    assert {"buy", "line"} <= kinds
    why = page.locator(".result-why")
    expect(why).to_have_text(re.compile(r"(reached 20 points|gathered 10 crowns|10 points on)"))
    expect(page.locator(".scores small").first).to_have_text(
        re.compile(r"^\d+ from cards \+ \d+ from royals$")
    )
    screenshot(page, "duel-game-over-1366x768")
    assert errors == []
