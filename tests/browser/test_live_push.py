"""Server push in a real browser, on the ASGI server: a move reaches the other player's page
without any polling, the tab says whose turn it is, and a late answer never takes the page back
in time."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, Request, expect

from games.commands import lobby
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from tests.browser.conftest import log_in
from tests.web.tables import create_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def version_shown(page: Page) -> int:
    return int(page.locator("#region-status").get_attribute("data-version") or 0)


def take_offered_gems(page: Page) -> None:
    form = page.locator(".take-form")
    offered = (form.get_attribute("data-legal-takes") or "").split()
    for colour in offered[0].split(","):
        form.locator(f"label:has(input[value={colour}])").click()
    page.click(".take-form .take-selected")


def open_game(page: Page, url: str, game: Game) -> None:
    page.goto(f"{url}/games/{game.pk}/")
    expect(page.locator(".game[data-ready]")).to_have_count(1)


def test_a_move_is_pushed_to_the_other_page_and_the_tab_title_follows_the_turn(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = create_game(UserSeat(alice), UserSeat(bob), creator=alice)
    alice_page, bob_page = new_context().new_page(), new_context().new_page()
    log_in(alice_page, asgi_server, "alice")
    log_in(bob_page, asgi_server, "bob")
    polls: list[str] = []

    def count_polls(request: Request) -> None:
        if request.url.endswith("/version"):
            polls.append(request.url)

    bob_page.on("request", count_polls)
    open_game(alice_page, asgi_server, game)
    open_game(bob_page, asgi_server, game)
    expect(alice_page).to_have_title(f"● Your turn · Game {game.pk}")
    expect(bob_page).to_have_title(f"Game {game.pk} · Splendor Online")
    expect(bob_page.locator(".game[data-push=open]")).to_have_count(1)

    take_offered_gems(alice_page)

    expect(bob_page.locator(".headline")).to_have_text("Your turn", timeout=5_000)
    expect(bob_page).to_have_title(f"● Your turn · Game {game.pk}")
    expect(bob_page.locator("link[rel=icon]")).to_have_attribute("href", re.compile("turn"))
    expect(alice_page).to_have_title(f"Game {game.pk} · Splendor Online")
    expect(bob_page.locator("#region-log")).to_contain_text("alice took")
    assert polls == [], "the page polled although the push stream was open"

    # The turn's sound is off until switched on, and stays on for the next page.
    sound = bob_page.locator(".alert-toggle[data-alert=sound]")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    bob_page.reload()
    expect(bob_page.locator(".alert-toggle[data-alert=sound]")).to_have_text("Sound on my turn: on")


def test_the_deadline_line_follows_the_pushed_turn(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, move_seconds=3600)  # fmt: skip
    alice_page, bob_page = new_context().new_page(), new_context().new_page()
    log_in(alice_page, asgi_server, "alice")
    log_in(bob_page, asgi_server, "bob")
    open_game(alice_page, asgi_server, game)
    open_game(bob_page, asgi_server, game)
    expect(bob_page.locator(".deadline")).to_contain_text("The move of alice is due by")

    take_offered_gems(alice_page)

    expect(bob_page.locator(".headline")).to_have_text("Your turn", timeout=5_000)
    expect(bob_page.locator(".deadline")).to_contain_text("The move of bob is due by")
    expect(alice_page.locator(".deadline")).to_contain_text("The move of bob is due by")


def test_an_older_answer_landing_last_never_replaces_the_newer_board(
    asgi_server: str, page: Page, make_player: Callable[[str], User]
) -> None:
    alice = make_player("alice")
    game = create_game(UserSeat(alice), BotSeat("greedy"), creator=alice)
    log_in(page, asgi_server, "alice")
    open_game(page, asgi_server, game)
    regions_url = f"/games/{game.pk}/regions/"
    # A genuine answer for the version shown now: all regions, as a poll would get them.
    stale = page.evaluate(
        """async (url) => {
            const response = await fetch(url, {headers: {"HX-Request": "true"}});
            return {body: await response.text(), headers: Object.fromEntries(response.headers)};
        }""",
        regions_url,
    )
    before = version_shown(page)
    assert int(stale["headers"]["x-game-version"]) == before

    take_offered_gems(page)  # the bot replies in the same request
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", str(before))
    expect(page.locator(".headline")).to_have_text("Your turn")
    after = version_shown(page)
    assert after > before
    page.wait_for_timeout(200)  # any follow-up fetch settles
    shown_after_move = regions_drawn(page)

    # Now the slow poll of the old version lands.
    page.route(
        f"**{regions_url}",
        lambda route: route.fulfill(status=200, body=stale["body"], headers=stale["headers"]),
    )
    page.evaluate(
        """(url) => htmx.ajax(
            "GET", url, {source: document.querySelector(".game"), swap: "none"})""",
        regions_url,
    )
    page.wait_for_timeout(300)

    assert version_shown(page) == after
    assert regions_drawn(page) == shown_after_move
    expect(page.locator("#region-log")).to_contain_text("alice took")


def regions_drawn(page: Page) -> dict[str, tuple[str, str]]:
    """Each region's digest and the version it was drawn at."""
    return {
        region.get_attribute("data-region") or "": (
            region.get_attribute("data-digest") or "",
            region.get_attribute("data-version") or "",
        )
        for region in page.locator("[data-region]").all()
    }
