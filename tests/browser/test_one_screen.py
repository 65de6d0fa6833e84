"""The whole table on one screen: at common laptop and desktop sizes every part a player needs
is in view without scrolling; on a phone the board comes first and the player's own buying
power stays in view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games import engine
from games.commands import play
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game, Seat
from games.reads import loading
from tests.browser.conftest import log_in, screenshot
from tests.web.tables import bots_paused, create_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REGIONS_IN_VIEW = [
    "#region-nobles .noble",
    "#region-board .deck",
    "#region-board .card[data-card]",
    "#region-supply .token-choice",
    "#region-supply .take-selected",
    "#region-players .player-points",
    "#region-players .power",
    "#region-players .reserved .card",
]


def reserve_then_take(legal: list[dict[str, Any]], index: int) -> dict[str, Any]:
    """Everyone reserves three cards (so reserves show), then takes gems or buys."""
    kinds = {action["type"]: action for action in reversed(legal)}
    for kind in ("choose_noble", "return_tokens"):
        if kind in kinds:
            return kinds[kind]
    if index < 12 and "reserve_card" in kinds:
        return kinds["reserve_card"]
    for kind in ("buy_card", "take_gems", "reserve_card", "pass"):
        if kind in kinds:
            return kinds[kind]
    return legal[0]


def four_player_game_in_progress(alice: User) -> Game:
    game = create_game(UserSeat(alice), *(BotSeat("greedy") for _ in range(3)), creator=alice)
    with bots_paused():
        for index in range(20):
            game = Game.objects.get(pk=game.pk)
            seat = Seat.objects.get(game=game, index=game.acting_seat)
            state = loading.game_state(game)
            assert state is not None
            legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
            play.game_take_action(
                game_id=game.pk,
                action=reserve_then_take(legal, index),
                expected_version=game.version,
                user=seat.user,
                as_bot=seat.user is None,
            )
    return Game.objects.get(pk=game.pk)


def boxes_outside_the_viewport(page: Page, selectors_in_view: list[str]) -> list[str]:
    viewport = page.viewport_size
    assert viewport is not None
    outside = []
    for selector in selectors_in_view:
        elements = page.locator(selector).all()
        assert elements, f"nothing matches {selector}"
        for element in elements:
            box = element.bounding_box()
            assert box is not None, f"{selector} is not displayed"
            if (
                box["x"] < 0
                or box["y"] < 0
                or box["x"] + box["width"] > viewport["width"] + 0.5
                or box["y"] + box["height"] > viewport["height"] + 0.5
            ):
                outside.append(f"{selector} at {box}")
    return outside


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1280, 720), (1920, 1080)])
def test_the_whole_table_fits_one_screen(
    width: int,
    height: int,
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = four_player_game_in_progress(make_player("alice"))
    page = new_context(viewport={"width": width, "height": height}).new_page()
    log_in(page, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    expect(page.locator(".headline")).to_have_text("Your turn")
    screenshot(page, f"table-{width}x{height}")

    assert boxes_outside_the_viewport(page, REGIONS_IN_VIEW) == []
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height
    assert page.locator("#region-players .player").count() == 4
    assert page.locator("#region-players .reserved .card").count() >= 8
    smallest_cost = page.evaluate(
        """() => Math.min(...Array.from(document.querySelectorAll(
            "#region-board .card-cost .gem-count"), (count) =>
            parseFloat(getComputedStyle(count).fontSize)))"""
    )
    assert smallest_cost >= 12
    card = page.locator("#region-board .card[data-card]").first.bounding_box()
    assert card is not None
    assert card["height"] == pytest.approx(card["width"] * 1.4, rel=0.05)


def test_cards_grow_with_the_screen(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    game = four_player_game_in_progress(make_player("alice"))
    widths = []
    for width, height in [(1366, 768), (1920, 1080)]:
        page = new_context(viewport={"width": width, "height": height}).new_page()
        log_in(page, asgi_server, "alice")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        box = page.locator("#region-board .card[data-card]").first.bounding_box()
        assert box is not None
        widths.append(box["width"])

    assert widths[1] > widths[0] * 1.25


def test_on_a_phone_the_board_comes_first_and_my_buying_power_stays_in_view(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    game = four_player_game_in_progress(make_player("alice"))
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    log_in(page, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    screenshot(page, "table-390x844")

    def top(selector: str) -> float:
        box = page.locator(selector).first.bounding_box()
        assert box is not None
        return box["y"]

    assert top("#region-board") < top("#region-supply") < top("#region-players")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    mine = "#region-players .player.is-viewer .power"
    assert boxes_outside_the_viewport(page, [mine]) == []
    page.locator("#region-supply").evaluate("(bank) => bank.scrollIntoView({block: 'center'})")
    assert boxes_outside_the_viewport(page, [mine, "#region-supply .take-selected"]) == []
    # The fixed bar does not cover the bank's controls.
    bar = page.locator(mine).bounding_box()
    take = page.locator("#region-supply .take-selected").bounding_box()
    assert bar is not None
    assert take is not None
    assert take["y"] + take["height"] <= bar["y"] or take["y"] >= bar["y"] + bar["height"]
