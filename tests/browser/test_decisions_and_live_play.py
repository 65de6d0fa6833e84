"""Prepared positions in a real browser: giving back tokens, choosing a noble, the last move;
and two players in two browsers, each seeing the other's move without reloading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from games.reads import game_view
from games.vocabulary import Status
from tests.browser.conftest import log_in, screenshot
from tests.web.tables import game_at, winning_buys

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_taking_an_eleventh_token_asks_which_to_give_back(
    page: Page, live_server: LiveServer, make_player: Callable[[str], User]
) -> None:
    alice = make_player("alice")
    game = game_at("return_tokens", UserSeat(alice), BotSeat("greedy"), creator=alice)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")

    boxes = page.locator(".take-form input[name=gems]:not([disabled])")
    for index in range(3):
        boxes.nth(index).check()
    page.click(".take-form .take-selected")

    decision = page.locator("#region-decision")
    expect(decision).to_contain_text("Give back")
    expect(page.locator(".headline")).to_contain_text("give back")
    screenshot(page, "return-tokens")
    give_back = decision.locator(".return-form button[type=submit]")
    expect(give_back).to_be_disabled()  # nothing chosen yet
    wanted = int(decision.locator(".return-form").get_attribute("data-count") or 0)
    inputs = decision.locator("input[type=number]")
    remaining = wanted
    for index in range(inputs.count()):
        held = int(inputs.nth(index).get_attribute("max") or 0)
        chosen = min(held, remaining)
        inputs.nth(index).fill(str(chosen))
        remaining -= chosen
    expect(give_back).to_be_enabled()
    give_back.click()

    expect(decision).to_be_hidden()
    expect(page.locator(".headline")).to_have_text("Your turn")  # the bot has played
    expect(page.locator(".player.is-viewer .player-facts dd").first).to_have_text("10/10")
    expect(page.locator("#region-log")).to_contain_text("alice gave back")


def test_a_player_chooses_between_two_nobles(
    page: Page, live_server: LiveServer, make_player: Callable[[str], User]
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = game_at("choose_noble", UserSeat(alice), UserSeat(bob), creator=alice)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")

    choices = page.locator("#region-decision .noble-choice")
    expect(choices).to_have_count(2)
    screenshot(page, "noble-choice")
    chosen = choices.first.locator(".noble").get_attribute("data-noble")
    choices.first.locator("button").click()

    expect(page.locator("#region-decision")).to_be_hidden()
    expect(page.locator(".headline")).to_have_text("Waiting for bob")
    mine = page.locator(".player.is-viewer")
    expect(mine.locator(f".noble[data-noble='{chosen}']")).to_be_visible()
    expect(page.locator(f"#region-nobles .noble[data-noble='{chosen}']")).to_have_count(0)


def test_a_move_in_one_browser_appears_in_the_other_without_a_reload(
    live_server: LiveServer,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    make_player("alice")
    make_player("bob")
    alice_page, bob_page = new_context().new_page(), new_context().new_page()
    log_in(alice_page, live_server.url, "alice")
    log_in(bob_page, live_server.url, "bob")

    alice_page.goto(f"{live_server.url}/games/new/")
    alice_page.select_option("select[name=seat_1]", "open")
    alice_page.uncheck("input[name=is_public]")
    alice_page.click("button:has-text('Create the game')")
    expect(alice_page.locator("h1")).to_contain_text("is waiting for players")
    invite_link = alice_page.locator(".invite input").input_value()
    screenshot(alice_page, "waiting-room")

    bob_page.goto(invite_link)
    bob_page.click("button:has-text('Take a seat')")
    expect(bob_page.locator(".headline")).to_have_text("Waiting for alice")
    # Alice's waiting room notices the start by itself and becomes the game.
    expect(alice_page.locator(".headline")).to_have_text("Your turn", timeout=8_000)
    bob_page.evaluate("window.stillTheSamePage = true")

    boxes = alice_page.locator(".take-form input[name=gems]")
    for index in range(3):
        boxes.nth(index).check()
    alice_page.click(".take-form .take-selected")
    expect(alice_page.locator(".headline")).to_have_text("Waiting for bob")

    expect(bob_page.locator(".headline")).to_have_text("Your turn", timeout=8_000)
    expect(bob_page.locator("#region-log")).to_contain_text("alice took")
    expect(bob_page.locator(".take-form")).to_be_visible()
    assert bob_page.evaluate("window.stillTheSamePage") is True


def test_the_last_move_ends_the_game_and_shows_the_scores(
    page: Page, live_server: LiveServer, make_player: Callable[[str], User]
) -> None:
    alice = make_player("alice")
    game = game_at("near_end", UserSeat(alice), BotSeat("greedy"), creator=alice)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")

    winning = winning_buys(*_seat_zero_view_and_legal(game))[0]
    page.click(f".card[data-card='{winning}']")  # opens its choices
    page.click(f".card[data-card='{winning}'] .btn-buy")

    expect(page.locator(".result-headline")).to_be_visible()
    expect(page.locator(".scores tbody tr")).to_have_count(2)
    expect(page.locator(".result-why")).to_contain_text("15 points")
    assert Game.objects.get(pk=game.pk).status == Status.FINISHED
    screenshot(page, "game-over")
    expect(page.locator(".take-form")).to_have_count(0)


def _seat_zero_view_and_legal(game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    fresh = Game.objects.get(pk=game.pk)
    alice = fresh.seats.get(index=0).user
    view = game_view.game_view_for_viewer(fresh, alice)
    return view["state"], view["legal_actions"]
