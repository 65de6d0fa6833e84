"""Splendor Duel: a line of tokens is taken by clicking its tokens on the 5×5 board.

Only tokens that can still complete a legal line stay pickable; the confirm button sends the
line, and the board then shows the game after the move. On a laptop screen with the mouse,
and on a phone by touch, confirmed from the keyboard.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import engine
from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent
from games.reads import loading
from games.variants.duel.words import space_name
from tests.browser.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def duel_on_my_turn(me: User, friend: User) -> tuple[Game, list[list[str]]]:
    """A new Duel between two people, and the lines of tokens its first player may take."""
    game = lobby.game_create(variant="duel", seats=[UserSeat(me), UserSeat(friend)],
                             created_by=me, seed=20_26)  # fmt: skip
    state = loading.game_state(game)
    assert state is not None
    lines = [
        [space_name(space) for space in action["spaces"]]
        for action in map(engine.action_to_json, engine.legal_actions(state))
        if action["type"] == "take_tokens"
    ]
    return game, lines


def pickable(page: Page) -> set[str]:
    tokens = page.locator(".duel-token:not([disabled])")
    return {tokens.nth(index).get_attribute("data-space") or "" for index in range(tokens.count())}


def first_taken_line(game: Game) -> Any:
    taken = GameEvent.objects.filter(game=game, kind="ActionTaken").order_by("seq").first()
    return taken and [space_name(space) for space in taken.payload["action"]["spaces"]]


def play_a_line_by_its_tokens(
    page: Page, game: Game, lines: list[list[str]], *, tap: bool, confirm_by_keyboard: bool
) -> list[str]:
    line = max(lines, key=len)  # a line of three when there is one
    take = page.locator(".duel-line-take")
    expect(page.locator(".duel-line-form")).to_be_visible()
    expect(take).to_be_disabled()
    assert pickable(page) == {space for item in lines for space in item}

    for picked, space in enumerate(line, start=1):
        token = page.locator(f".duel-token[data-space='{space}']")
        if tap:
            token.tap()
        else:
            token.click()
        expect(token).to_have_attribute("aria-pressed", "true")
        chosen = line[:picked]
        still_open = [item for item in lines if set(chosen) <= set(item)]
        assert pickable(page) == {space for item in still_open for space in item}
        if sorted(chosen) not in [sorted(item) for item in lines]:
            expect(take).to_be_disabled()
    expect(take).to_be_enabled()
    expect(page.locator(".duel-line-hint")).to_have_text(re.compile("^Ready: take"))
    screenshot(page, f"duel-line-picked-{'phone' if tap else 'laptop'}")

    version = page.locator("#region-board").get_attribute("data-version")
    if confirm_by_keyboard:
        take.focus()
        page.keyboard.press("Enter")
    else:
        take.click()
    expect(page.locator("#region-board")).not_to_have_attribute("data-version", version or "")
    for space in line:  # the tokens taken have left the board
        expect(page.locator(f".duel-space[data-space='{space}'] .gem")).to_have_count(0)
    assert sorted(first_taken_line(game)) == sorted(line)
    return line


@pytest.mark.parametrize(("device", "tap"), [(LAPTOP, False), (PHONE, True)],
                         ids=["laptop", "phone"])  # fmt: skip
def test_a_line_is_taken_by_clicking_its_tokens_then_confirming(
    device: dict[str, Any],
    tap: bool,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
    live_server: LiveServer,
) -> None:
    dora, eve = make_player("dora"), make_player("eve")
    game, lines = duel_on_my_turn(dora, eve)
    first = [dora, eve][game.acting_seat or 0]
    page = new_context(**device).new_page()
    log_in(page, live_server.url, first.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")

    play_a_line_by_its_tokens(page, game, lines, tap=tap, confirm_by_keyboard=tap)
    expect(page.locator(".headline")).to_have_text(re.compile("^Waiting for"))
    expect(page.locator(".duel-line-form")).to_have_count(0)
    screenshot(page, f"duel-line-taken-{'phone' if tap else 'laptop'}")


def test_a_picked_token_is_released_by_a_second_press_and_clear_releases_all(
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
    live_server: LiveServer,
) -> None:
    dora, eve = make_player("dora"), make_player("eve")
    game, lines = duel_on_my_turn(dora, eve)
    first = [dora, eve][game.acting_seat or 0]
    page = new_context(**LAPTOP).new_page()
    log_in(page, live_server.url, first.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    every = {space for item in lines for space in item}
    line = max(lines, key=len)

    token = page.locator(f".duel-token[data-space='{line[0]}']")
    token.focus()
    page.keyboard.press("Space")  # a token is a button: the keyboard picks it too
    expect(token).to_have_attribute("aria-pressed", "true")
    assert pickable(page) == {space for item in lines if line[0] in item for space in item}
    token.click()
    expect(token).to_have_attribute("aria-pressed", "false")
    assert pickable(page) == every

    for space in line[:2]:
        page.locator(f".duel-token[data-space='{space}']").click()
    page.locator(".duel-line-clear").click()
    expect(page.locator(".duel-token[aria-pressed='true']")).to_have_count(0)
    assert pickable(page) == every
    assert Game.objects.get(pk=game.pk).version == game.version


def test_on_a_laptop_the_whole_board_shows_without_scrolling_on_my_turn(
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
    live_server: LiveServer,
) -> None:
    dora, eve = make_player("dora"), make_player("eve")
    game, _lines = duel_on_my_turn(dora, eve)
    first = [dora, eve][game.acting_seat or 0]
    page = new_context(**LAPTOP).new_page()
    log_in(page, live_server.url, first.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")

    expect(page.locator(".duel-line-form")).to_be_visible()
    spaces = page.locator(".duel-space")
    expect(spaces).to_have_count(25)
    height = LAPTOP["viewport"]["height"]
    for index in range(25):
        box = spaces.nth(index).bounding_box()
        assert box is not None
        assert 0 <= box["y"] <= box["y"] + box["height"] <= height, box
    # The lines stay one click away, for keyboards and pages without JavaScript.
    lines = page.locator("details.duel-choices[data-kind='take_tokens']")
    expect(lines).not_to_have_attribute("open", "")
    lines.locator("summary").click()
    expect(lines.locator("button").first).to_be_visible()
    screenshot(page, "duel-board-on-my-turn-laptop")
