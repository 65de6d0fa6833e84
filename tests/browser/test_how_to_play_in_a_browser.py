"""The "How to play" pages in a browser: a newcomer reaches them from the new-game form, the
table and the footer; each page, pictures included, fits a laptop and a phone without scrolling
sideways, and leaves the console clean. Screenshots: ``how-to-play-<variant>-1366x768.png``."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games.commands import lobby
from games.commands.lobby import UserSeat
from tests.browser.conftest import log_in, screenshot
from tests.browser.console import ConsoleWatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = {"splendor": "Splendor", "duel": "Splendor Duel"}
SIZES = {"1366x768": {"width": 1366, "height": 768}, "390x844": {"width": 390, "height": 844}}


def wider_than_the_window(page: Page) -> list[str]:
    """The elements that reach past the window's right edge (what would scroll sideways)."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll("body *")]
                .filter((element) => element.getBoundingClientRect().right > innerWidth + 0.5)
                .map((element) => `${element.tagName}.${element.className}`)"""
        )
    )


@pytest.mark.parametrize("size", sorted(SIZES))
def test_both_pages_fit_the_window_and_leave_the_console_clean(
    asgi_server: str, new_context: Callable[..., BrowserContext], size: str
) -> None:
    context = new_context(viewport=SIZES[size])
    console = ConsoleWatch.on(context)
    page = context.new_page()
    for variant, title in TITLES.items():
        page.goto(f"{asgi_server}/how-to-play/{variant}/")
        expect(page.locator("h1")).to_have_text(f"How to play {title}")
        pictures = page.get_by_role("img", name=re.compile("."))
        expect(page.locator("figure.how-figure")).to_have_count(5)
        expect(page.locator(".how-picture .card[data-card]").first).to_be_visible()
        assert pictures.count() >= 5
        assert wider_than_the_window(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        screenshot(page, f"how-to-play-{variant}-{size}")
    assert console.problems() == []


def test_the_form_the_table_and_the_footer_lead_to_the_pages(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    duel = lobby.game_create(
        variant="duel", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=3
    )
    page = new_context(viewport=SIZES["1366x768"]).new_page()
    log_in(page, asgi_server, "alice")

    page.goto(f"{asgi_server}/games/new/")
    page.get_by_role("link", name="How to play Splendor Duel").click()
    expect(page.locator("h1")).to_have_text("How to play Splendor Duel")

    page.goto(f"{asgi_server}/games/{duel.pk}/")
    page.locator("#region-status").get_by_role("link", name="How to play").click()
    expect(page).to_have_url(f"{asgi_server}/how-to-play/duel/")

    page.get_by_role("navigation", name="How to play").get_by_role(
        "link", name="Splendor", exact=True
    ).click()
    expect(page.locator("h1")).to_have_text("How to play Splendor")
