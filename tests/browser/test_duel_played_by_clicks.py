"""A Splendor Duel against a bot, played to its end by clicks on the table at 1366×768: cards
bought by clicking them, lines of tokens picked on the board, a privilege spent on a token, and
the decisions of their own made on the things they choose (a royal tile, a bonus colour, a token
of the board or of the opponent's panel, tokens of one's own panel put back). No grouped
button is used but to pass. Both players' panels, the board and the pyramid stay in view the whole
game, but while the card just bought shows above the table; no console error, no CSP
violation."""

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
OF_THEIR_OWN = {"royal", "joker colour", "matching token", "opponent's token", "put back"}
"""The decisions that follow a move, each made on the thing it chooses."""


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


def spend_a_privilege(page: Page) -> bool:
    """Switch the board to spending a privilege, then click the first token it offers."""
    spend = page.locator(".duel-privilege-spend")
    if not spend.count():
        return False
    spend.click()
    page.locator(".duel-token[data-privilege]:not([disabled])").first.click()
    return True


def put_back(page: Page) -> bool:
    """Click my tokens in my panel until as many as are due are picked, then confirm."""
    form = page.locator(".duel-player.is-viewer .duel-put-back-form")
    if not form.count():
        return False
    confirm = form.locator(".duel-put-back-confirm")
    while confirm.is_disabled():
        page.locator(".duel-player.is-viewer .duel-put-back:not([disabled])").first.click()
    confirm.click()
    return True


def decide_on_the_table(page: Page) -> str:
    """A decision of its own, by a click on the first thing on the table that makes it: the
    kind of thing clicked."""
    if put_back(page):
        return "put back"
    pick = page.locator(".duel-pick:not([disabled])").first
    kind = pick.evaluate(
        """(pick) => pick.matches(".duel-royal") ? "royal"
          : pick.matches(".duel-token") ? "matching token"
          : pick.closest(".duel-player.is-viewer") ? "joker colour" : "opponent's token" """
    )
    pick.click()
    return str(kind)


def replenish_or_pass(page: Page) -> str:
    """No line to take and no card to buy: click the bag, or else pass (a button of its own)."""
    bag = page.locator(".duel-bag.duel-pick")
    if bag.count():
        bag.click()
        return "bag"
    page.locator(".decision details.duel-choices[data-kind='pass'] form button").click()
    return "pass"


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
        # With the script every list of buttons stays closed: the table is where moves are made.
        expect(page.locator(".decision details.duel-choices[open]")).to_have_count(0)
        if not page.locator(".decision .duel-card").count():  # the card just bought, if any
            assert parts_outside_the_viewport(page) == []
        before = version_shown(page)
        if page.locator(".duel-table-hint").count():
            kinds.add(decide_on_the_table(page))
        elif "privilege" not in kinds and spend_a_privilege(page):  # once, when first held
            kinds.add("privilege")
        elif buy_a_card(page):
            kinds.add("buy")
        elif take_a_line(page):
            kinds.add("line")
        else:
            kinds.add(replenish_or_pass(page))
        expect(page.locator("#region-status")).not_to_have_attribute("data-version", before)
    else:
        pytest.fail(f"the game did not end within {MOST_TURNS} of dora's moves")

    game.refresh_from_db()
    assert game.status == "finished"
    assert {"buy", "line", "privilege"} <= kinds
    # With seed 4: the joker's colour, a matching token and tokens put back (and the bag once);
    # a royal and the opponent's token are made in tests of their own.
    assert kinds & OF_THEIR_OWN, kinds
    why = page.locator(".result-why")
    expect(why).to_have_text(re.compile(r"(reached 20 points|gathered 10 crowns|10 points on)"))
    expect(page.locator(".scores small").first).to_have_text(
        re.compile(r"^\d+ from cards \+ \d+ from royals$")
    )
    screenshot(page, "duel-game-over-1366x768")
    assert errors == []
