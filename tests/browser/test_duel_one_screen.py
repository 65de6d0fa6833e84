"""Splendor Duel on one screen: at common laptop sizes the token board, the royals, the pyramid
and both players' panels are all in view and apart; on a phone the board comes first and the
player's own tokens, bonuses and points stay in view while they scroll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games import engine
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game, Seat
from games.reads import loading
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_one_screen import boxes_outside_the_viewport

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#region-board"
PYRAMID = "#region-pyramid .duel-pyramid-row"
PANELS = "#region-players .duel-player"
IN_VIEW = [
    "#region-board .duel-grid",
    "#region-board .duel-supply",
    "#region-pyramid .duel-royal",
    "#region-pyramid .deck",
    "#region-pyramid [data-card]",
    PANELS,
    "#region-players .duel-colours",
    "#region-players .duel-goals",
    "#region-players .duel-reserved > *",
    "#region-log",
]


def reserve_then_buy(
    view: dict[str, Any], legal: list[dict[str, Any]], seat: int
) -> dict[str, Any]:
    """Each player takes gold and reserves (the second seat from a deck, unseen by the first)
    until they hold two reserved cards, then buys, else takes the longest line."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    if "reserve_from_deck" in kinds and seat == 1:
        return kinds["reserve_from_deck"][0]
    if "reserve_card" in kinds:
        return kinds["reserve_card"][0]
    if "take_gold" in kinds and len(view["players"][seat]["reserved"]) < 2:
        return kinds["take_gold"][0]
    if "buy_card" in kinds:
        return kinds["buy_card"][0]
    if "take_tokens" in kinds:
        return max(kinds["take_tokens"], key=lambda action: len(action["spaces"]))
    return legal[0]


def duel_in_progress(me: User, friend: User, moves: int = 14) -> Game:
    """A Duel some turns in, both players holding reserved cards, on ``me``'s turn."""
    game = lobby.game_create(variant="duel", seats=[UserSeat(me), UserSeat(friend)],
                             created_by=me, seed=20_26)  # fmt: skip
    played = 0
    while played < moves or Seat.objects.get(game=game, index=game.acting_seat).user != me:
        state = loading.game_state(game)
        assert state is not None
        legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
        view = engine.view(state, None)
        seat = Seat.objects.select_related("user").get(game=game, index=game.acting_seat)
        play.game_take_action(
            game_id=game.pk,
            action=reserve_then_buy(view, legal, seat.index),
            expected_version=game.version,
            user=seat.user,
        )
        game = Game.objects.get(pk=game.pk)
        played += 1
        assert game.status == "active"
        assert played < 60
    return game


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not displayed"
    return found


def union(page: Page, selector: str) -> dict[str, float]:
    boxes = [item.bounding_box() for item in page.locator(selector).all()]
    assert boxes, f"nothing matches {selector}"
    assert all(boxes), f"{selector} is not displayed"
    left = min(item["x"] for item in boxes if item)
    top = min(item["y"] for item in boxes if item)
    right = max(item["x"] + item["width"] for item in boxes if item)
    bottom = max(item["y"] + item["height"] for item in boxes if item)
    return {"x": left, "y": top, "width": right - left, "height": bottom - top}


def overlap(one: dict[str, float], two: dict[str, float]) -> bool:
    return (
        one["x"] < two["x"] + two["width"] - 0.5
        and two["x"] < one["x"] + one["width"] - 0.5
        and one["y"] < two["y"] + two["height"] - 0.5
        and two["y"] < one["y"] + one["height"] - 0.5
    )


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1280, 720), (1024, 768)])
def test_the_whole_duel_table_fits_one_laptop_screen(
    width: int,
    height: int,
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = duel_in_progress(make_player("dora"), make_player("eve"))
    page = new_context(viewport={"width": width, "height": height}).new_page()
    errors = watch_errors(page)
    log_in(page, asgi_server, "dora")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    expect(page.locator(".headline")).to_have_text("Your turn")
    screenshot(page, f"duel-table-{width}x{height}")

    assert boxes_outside_the_viewport(page, IN_VIEW) == []
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height
    panels = page.locator(PANELS)
    expect(panels).to_have_count(2)
    parts = {
        "board": box(page, BOARD),
        "pyramid": union(page, PYRAMID),
        "my panel": box(page, f"{PANELS}.is-viewer"),
        "their panel": box(page, f"{PANELS}:not(.is-viewer)"),
    }
    for part in parts.values():
        assert part["width"] >= 150, parts
        assert part["height"] >= 100, parts
    names = list(parts)
    overlapping = [
        (one, two)
        for index, one in enumerate(names)
        for two in names[index + 1 :]
        if overlap(parts[one], parts[two])
    ]
    assert overlapping == []
    # Each panel says what its player holds: seven token colours, five bonus colours.
    mine = page.locator(f"{PANELS}.is-viewer")
    expect(mine.locator(".duel-colours thead .gem")).to_have_count(7)
    expect(mine.locator(".duel-goal")).to_have_count(4)
    # The opponent's blind reserve is a card back, never its face.
    theirs = page.locator(f"{PANELS}:not(.is-viewer)")
    expect(theirs.locator(".duel-reserved .card-back")).not_to_have_count(0)
    assert errors == []


def test_on_a_phone_the_duel_board_comes_first_and_my_panel_stays_in_view(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = duel_in_progress(make_player("dora"), make_player("eve"))
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    errors = watch_errors(page)
    log_in(page, asgi_server, "dora")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    screenshot(page, "duel-table-390x844")

    def top(selector: str) -> float:
        return box(page, selector)["y"]

    assert top("#region-board") < top("#region-pyramid") < top("#region-players")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    mine = f"{PANELS}.is-viewer .duel-colours"
    assert boxes_outside_the_viewport(page, [mine, "#region-board .duel-grid"]) == []
    page.locator("#region-pyramid").evaluate("(cards) => cards.scrollIntoView({block: 'end'})")
    last_row = "#region-pyramid .duel-pyramid-row--1"
    assert boxes_outside_the_viewport(page, [mine]) == []
    # The fixed panel does not cover the cards scrolled to.
    page.locator(last_row).evaluate("(row) => row.scrollIntoView({block: 'center'})")
    assert not overlap(box(page, mine), box(page, last_row))
    assert errors == []
