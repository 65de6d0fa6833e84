"""A new player signs up and plays a bot in a real browser: take, reserve, buy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.variants.words import LETTERS
from tests.browser.conftest import PASSWORD, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def version_shown(page: Page) -> int:
    return int(page.locator("#region-status").get_attribute("data-version") or 0)


COLOUR_OF_LETTER = {letter: colour for colour, letter in LETTERS.items()}


def colours_nearest_card_needs(page: Page) -> set[str]:
    """The colours missing for the card the fewest gems short, as its "needs 2R 1K" says: as a
    player would, the test takes gems toward a card, not whichever take is listed first."""
    shortfalls = []
    for text in page.locator(".card-needs").all_inner_texts():
        missing = re.findall(r"(\d+)([WBGRK])", text)
        if missing:
            total = sum(int(count) for count, _ in missing)
            shortfalls.append((total, {COLOUR_OF_LETTER[letter] for _, letter in missing}))
    return min(shortfalls, key=lambda item: item[0])[1] if shortfalls else set()


def take_three_gems(page: Page) -> None:
    """Tick the combination the page offers (the server's legal takes) that goes furthest
    toward the nearest card, and take it.

    The game's shuffle is random, so which colours are left differs from run to run.
    """
    before = version_shown(page)
    form = page.locator(".take-form")
    offered = (form.get_attribute("data-legal-takes") or "").split()
    assert offered, "the page offers no way to take gems"
    wanted = colours_nearest_card_needs(page)
    take = max(offered, key=lambda combination: len(wanted & set(combination.split(","))))
    for colour in take.split(","):
        form.locator(f"input[name=gems][value={colour}]").check()
    page.click(".take-form .take-selected")
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", str(before))


def test_sign_up_and_play_a_bot_taking_reserving_and_buying(
    page: Page, live_server: LiveServer
) -> None:
    url = live_server.url
    page.goto(url + "/")
    expect(page.locator("h1")).to_have_text("Splendor Online")
    screenshot(page, "home")

    page.click("text=Sign up to play")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=email]", "newcomer@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button:has-text('Create my account')")
    page.wait_for_url(url + "/lobby/")
    expect(page.locator(".notice")).to_contain_text("Welcome, newcomer")

    page.click("a.btn:has-text('New game')")
    screenshot(page, "new-game")
    page.select_option("select[name=seat_1]", "bot:greedy")
    page.click("button:has-text('Create the game')")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    expect(page.locator(".headline")).to_have_text("Your turn")
    screenshot(page, "game-start")

    take_three_gems(page)
    expect(page.locator(".headline")).to_have_text("Your turn")
    expect(page.locator("#region-log")).to_contain_text("newcomer took")
    expect(page.locator("#region-log")).to_contain_text("Greedy bot")

    reserved_card = page.locator("#region-board .card[data-card]").first.get_attribute("data-card")
    page.click(f"#region-board .card[data-card='{reserved_card}']")  # opens its choices
    page.click(f"#region-board .card[data-card='{reserved_card}'] .btn-reserve")
    mine = page.locator(".player.is-viewer")
    expect(mine.locator(f".reserved .card[data-card='{reserved_card}']")).to_be_visible()

    for _ in range(4):
        if page.locator(".btn-buy").count():
            break
        take_three_gems(page)
        if page.locator("#region-decision .return-form").count():
            pytest.fail("took too many tokens before any card became affordable")
    buyable = page.locator(".card:has(.btn-buy)").first
    bought = buyable.get_attribute("data-card")
    expect(buyable).to_have_class(re.compile("is-affordable"))
    cards_before = int(mine.locator(".player-facts dd").nth(1).inner_text())
    buyable.click()  # opens its choices
    buyable.locator(".btn-buy").click()
    expect(mine.locator(".player-facts dd").nth(1)).to_have_text(str(cards_before + 1))
    expect(page.locator("#region-log")).to_contain_text("newcomer bought")
    expect(page.locator(f"#region-board .card[data-card='{bought}']")).to_have_count(0)
    screenshot(page, "game-in-progress")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "game-in-progress-phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    page.goto(url + "/lobby/")
    expect(page.locator(".game-row.is-my-turn")).to_have_count(1)
    screenshot(page, "lobby")

    page.goto(url + "/accounts/profile/")
    page.fill("input[name=display_name]", "Newcomer N.")
    page.click("button:has-text('Save')")
    expect(page.locator(".notice")).to_contain_text("Your profile is saved")
    page.fill("input[name=name]", "my bot")
    page.click("button:has-text('Create a token')")
    expect(page.locator(".new-token input")).to_have_value(re.compile("^spl_"))
    screenshot(page, "profile")
