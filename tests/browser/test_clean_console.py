"""A session on the site leaves the browser's console clean: a whole base game played by clicks
against a bot with moves pushed by the server, a replay stepped through every way it offers, the
statistics, the lists of games and the "How to play" pages. Any console error, uncaught
exception or Content-Security-Policy violation (as the page's event or the console's message)
fails it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from analytics import projections
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from games.vocabulary import Status
from tests.browser.conftest import log_in, screenshot
from tests.browser.console import ConsoleWatch
from tests.browser.test_playing_a_bot import take_three_gems, version_shown
from tests.web.tables import create_game

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MOVE_BOUND = 120


def play_one_turn(page: Page) -> None:
    """Whatever the page asks for, by clicks: a decision first, else the richest card the
    player can buy, else three gems toward the nearest card, else two of a colour, else a
    reserve. Returns once the page shows the answer."""
    before = version_shown(page)
    decision = page.locator("#region-decision")
    buyable = page.locator(".card.has-actions:has(.btn-buy)")
    if decision.locator(".return-form").count():
        give_back_by_clicks(page)
    elif decision.locator(".noble-choice").count():
        decision.locator(".noble-choice button").first.click()
    elif decision.locator("button:has-text('Pass')").count():
        decision.locator("button:has-text('Pass')").click()
    elif buyable.count():
        card = buyable.first
        card.click()
        card.locator(".btn-buy").click()
    elif (page.locator(".take-form").get_attribute("data-legal-takes") or "").strip():
        take_three_gems(page)
        return
    elif page.locator(".take-two").count():
        page.locator(".take-two").first.click()
    else:
        card = page.locator("#region-board .card.has-actions:has(.btn-reserve)").first
        card.click()
        card.locator(".btn-reserve").click()
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", str(before))


def give_back_by_clicks(page: Page) -> None:
    """Raise each colour's count with the number field's arrow, as a mouse would."""
    form = page.locator("#region-decision .return-form")
    wanted = int(form.get_attribute("data-count") or 0)
    fields = form.locator("input[type=number]")
    for index in range(fields.count()):
        field = fields.nth(index)
        while wanted and int(field.input_value()) < int(field.get_attribute("max") or 0):
            field.focus()
            page.keyboard.press("ArrowUp")
            wanted -= 1
    form.locator("button[type=submit]").click()


def play_to_the_end(page: Page, game: Game) -> None:
    for _ in range(MOVE_BOUND):
        expect(page.locator(".headline")).to_have_text(re.compile("^Your turn|^Game over"))
        # The bot's move reaches the page twice, in the answer to ours and by push: act once
        # the page shows the game's latest version, as a player acts on what they see.
        latest = Game.objects.get(pk=game.pk)
        if latest.status != Status.ACTIVE:
            expect(page.locator(".result-headline")).to_be_visible()
            return
        expect(page.locator("#region-status")).to_have_attribute(
            "data-version", str(latest.version)
        )
        play_one_turn(page)
    pytest.fail(f"the game did not end within {MOVE_BOUND} moves")


def step_through_the_replay(page: Page, base: str, game: Game) -> None:
    page.goto(f"{base}/games/{game.pk}/replay/")
    stage = page.locator("#replay-stage")
    expect(stage).to_have_attribute("data-step", "0")
    # A screenshot leaves a style attribute on the slider (Chromium hides its caret so); any
    # browser extension may do as much. Swapping the stage must not copy it over.
    screenshot(page, "replay-1366x768")
    for step in (1, 2):
        page.click("a[data-replay-next]")
        expect(stage).to_have_attribute("data-step", str(step))
    page.click("a[data-replay-prev]")
    expect(stage).to_have_attribute("data-step", "1")
    for step in (2, 3):
        page.keyboard.press("ArrowRight")
        expect(stage).to_have_attribute("data-step", str(step))
    page.keyboard.press("ArrowLeft")
    expect(stage).to_have_attribute("data-step", "2")
    page.locator("[data-replay-slider]").fill("9")
    expect(stage).to_have_attribute("data-step", "9")
    page.locator(".replay-moves a[data-step='5']").click()
    expect(stage).to_have_attribute("data-step", "5")
    # The browser's own Back and Forward walk the steps the address recorded.
    page.go_back()
    expect(stage).to_have_attribute("data-step", "9")
    page.go_back()
    expect(stage).to_have_attribute("data-step", "2")
    page.go_forward()
    expect(stage).to_have_attribute("data-step", "9")
    # Off to another page and back: the step comes back as a whole page, and Back goes on
    # through the steps.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Statistics").click()
    page.wait_for_url(re.compile(r"/stats/$"))
    page.go_back()
    expect(stage).to_have_attribute("data-step", "9")
    page.go_back()
    expect(stage).to_have_attribute("data-step", "2")
    page.click("a:has-text('End »')")
    expect(page.locator(".replay-step")).to_contain_text(re.compile(r"Step (\d+) of \1$"))


def test_a_game_a_replay_the_statistics_and_the_lists_leave_the_console_clean(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    alice = make_player("alice")
    game = create_game(UserSeat(alice), BotSeat("greedy"), creator=alice)
    context = new_context(viewport={"width": 1366, "height": 768})
    console = ConsoleWatch.on(context)
    page = context.new_page()
    log_in(page, asgi_server, "alice")

    page.goto(f"{asgi_server}/games/{game.pk}/")
    expect(page.locator(".game")).to_have_attribute("data-push", "open")
    screenshot(page, "table-first-turn-1366x768")
    play_to_the_end(page, game)
    assert Game.objects.get(pk=game.pk).status == Status.FINISHED

    step_through_the_replay(page, asgi_server, game)

    projections.rebuild()
    page.goto(f"{asgi_server}/stats/")
    expect(page.locator(".stats-summary")).to_contain_text("1 finished game")
    # A filter swaps the body in place; Back from another page shows the filtered page whole.
    page.get_by_role("navigation", name="Filters").get_by_role("link", name="2", exact=True).click()
    expect(page).to_have_url(re.compile(r"/stats/\?players=2$"))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Lobby").click()
    page.wait_for_url(re.compile(r"/lobby/$"))
    page.go_back()
    expect(page.locator("h1")).to_have_text("Statistics")
    expect(page.locator(".stats-summary")).to_contain_text("1 finished game")
    paths = ("/games/mine/", "/games/finished/", "/players/alice/", "/lobby/")
    for path in (*paths, "/how-to-play/splendor/", "/how-to-play/duel/"):
        page.goto(f"{asgi_server}{path}")
        expect(page.locator("main")).to_be_visible()

    assert console.problems() == []
