"""The lists of games fit a laptop screen: the lobby, My games, Finished games and a player's page
show every column in view at 1366×768 without scrolling a table sideways, and a phone's page
never grows wider than the phone (a wide table scrolls inside its own frame there)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games.commands import lobby, play
from games.commands.lobby import BotSeat, UserSeat
from tests.browser.conftest import log_in, screenshot
from tests.finished_games import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

TABLE_PAGES = ("/games/mine/", "/games/finished/", "/players/alice_in_wonderland/")
LIST_PAGES = ("/lobby/", *TABLE_PAGES)


@pytest.fixture
def games_of_every_kind(make_player: Callable[[str], User]) -> User:
    """A player with long-named opponents: a four-player game played out, a Duel resigned
    (the longest result text) and a game running."""
    players = [
        make_player(name)
        for name in ("alice_in_wonderland", "bartholomew_b", "cornelius_c", "dorothea_d")
    ]
    alice = players[0]
    finished_game(players, 23)
    duel = lobby.game_create(
        variant="duel", seats=[UserSeat(alice), BotSeat("greedy")], created_by=alice, seed=5
    )
    play.game_resign(game_id=duel.pk, user=alice)
    lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), BotSeat("random")], created_by=alice, seed=8
    )
    return alice


def sideways_overflow(page: Page) -> list[str]:
    """Each table whose frame must scroll sideways to show it, as "<first header>: N px"."""
    overflow: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('table')].flatMap(table => {
            const frame = table.closest('.table-scroll') || table.parentElement;
            const hidden = Math.max(table.scrollWidth, frame.scrollWidth) - frame.clientWidth;
            const name = table.querySelector('th')?.textContent.trim();
            return hidden > 1 ? [`${name}: ${hidden} px`] : [];
        })"""
    )
    return overflow


def test_every_column_of_the_lists_is_in_view_on_a_laptop(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    games_of_every_kind: User,
) -> None:
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    log_in(page, asgi_server, games_of_every_kind.username)
    for path in LIST_PAGES:
        page.goto(f"{asgi_server}{path}")
        expect(page.get_by_text("resigned").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366, path
        assert sideways_overflow(page) == [], path
        screenshot(page, f"list-{path.strip('/').replace('/', '-')}-1366x768")
    for path in TABLE_PAGES:
        page.goto(f"{asgi_server}{path}")
        last_header = page.locator("table").first.locator("th").last.bounding_box()
        assert last_header is not None
        assert last_header["x"] + last_header["width"] <= 1366, path


def test_a_phone_s_page_is_never_wider_than_the_phone(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    games_of_every_kind: User,
) -> None:
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    log_in(page, asgi_server, games_of_every_kind.username)
    for path in LIST_PAGES:
        page.goto(f"{asgi_server}{path}")
        expect(page.get_by_text("resigned").first).to_be_attached()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
