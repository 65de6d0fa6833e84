"""A player starts a Splendor Duel against a bot from the lobby and plays on a laptop screen,
against the Greedy bot and against the Expert (the search judged by the installed network)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tests.browser.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = 4


@pytest.mark.parametrize("level", ["greedy", "expert"])
def test_a_duel_against_a_bot_starts_from_the_lobby_and_moves_are_made(
    level: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
    live_server: LiveServer,
) -> None:
    make_player("dora")
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    url = live_server.url
    log_in(page, url, "dora")

    page.click("a.btn:has-text('New game')")
    page.check("input[name=variant][value=duel]")
    page.select_option("select[name=seat_1]", f"bot:{level}")
    page.click("button:has-text('Create the game')")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert game.variant == "duel"
    expect(page.locator(".duel-space")).to_have_count(25)
    expect(page.locator(".headline")).to_have_text(re.compile("^Your turn"))
    expect(page.locator("#region-log")).to_contain_text(f"{level.title()} bot took seat 2")
    screenshot(page, f"duel-start-{level}")

    for _ in range(MOVES):
        game.refresh_from_db()
        if game.status != "active":
            break
        before = game.version
        choices = page.locator(".decision details").first
        if choices.get_attribute("open") is None:  # the lines of tokens start closed
            choices.locator("summary").click()
        choices.locator("form button").first.click()
        expect(page.locator("#region-status")).not_to_have_attribute("data-version", str(before))
        expect(page.locator(".headline")).to_have_text(re.compile("^(Your turn|Game over)"))
    screenshot(page, f"duel-after-moves-{level}")

    game.refresh_from_db()
    assert game.version > 6  # created, seats, started, and each move with the bot's answers
    assert page.locator(".log-list li").count() > 0
