"""A whole base game played with the keyboard alone: Tab to a control, Space to tick a gem,
Enter to press a button or open a card, Escape to close it, the arrow keys to count tokens to
give back. Nothing is clicked. The game against a bot goes from the deal to its end through
taking gems, buying cards and giving back tokens; choosing between two nobles (the only
noble's visit that asks anything of the player) is played from the position where it arises."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from games.vocabulary import Status
from tests.browser.conftest import log_in
from tests.browser.test_playing_a_bot import colours_nearest_card_needs, version_shown
from tests.web.tables import create_game, game_at

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MOVE_BOUND = 120
TAB_BOUND = 250
SEED = 3


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the focused element matches ``selector``, as a keyboard user would."""
    for _ in range(TAB_BOUND):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement.matches(selector)", selector):
            return
    pytest.fail(f"Tab never reached {selector}")


def press_on(page: Page, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    page.keyboard.press(key)


def take_gems_by_keyboard(page: Page) -> None:
    form = page.locator(".take-form")
    offered = (form.get_attribute("data-legal-takes") or "").split()
    wanted = colours_nearest_card_needs(page)
    take = max(offered, key=lambda combination: len(wanted & set(combination.split(","))))
    for colour in take.split(","):
        press_on(page, f".take-form input[name=gems][value={colour}]", "Space")
        expect(form.locator(f"input[value={colour}]")).to_be_checked()
    press_on(page, ".take-form .take-selected")


def buy_by_keyboard(page: Page, card: str) -> None:
    """Open the card with Enter (its first choice, Buy, takes the focus), then press Buy."""
    press_on(page, f".card[data-card='{card}']")
    expect(page.locator(f".card[data-card='{card}']")).to_have_attribute("aria-expanded", "true")
    expect(page.locator(f".card[data-card='{card}'] .btn-buy")).to_be_focused()
    page.keyboard.press("Enter")


def give_back_by_keyboard(page: Page) -> None:
    form = page.locator("#region-decision .return-form")
    wanted = int(form.get_attribute("data-count") or 0)
    fields = form.locator("input[type=number]")
    for index in range(fields.count()):
        name = fields.nth(index).get_attribute("name")
        held = int(fields.nth(index).get_attribute("max") or 0)
        tab_to(page, f".return-form input[name={name}]")
        for _ in range(min(held, wanted)):
            page.keyboard.press("ArrowUp")
            wanted -= 1
        if not wanted:
            break
    press_on(page, ".return-form button[type=submit]")


def play_one_turn_by_keyboard(page: Page, played: dict[str, int]) -> None:
    """Gems until tokens must be given back once, then a card whenever one can be bought."""
    before = version_shown(page)
    decision = page.locator("#region-decision")
    buyable = page.locator(".card.has-actions:has(.btn-buy)")
    if decision.locator(".return-form").count():
        give_back_by_keyboard(page)
        played["returns"] += 1
    elif decision.locator(".noble-choice").count():
        press_on(page, "#region-decision .noble-choice button")
        played["noble choices"] += 1
    elif decision.locator("button:has-text('Pass')").count():
        press_on(page, "#region-decision button")
    elif buyable.count() and (played["returns"] or not page.locator(".take-form").count()):
        buy_by_keyboard(page, buyable.first.get_attribute("data-card") or "")
        played["buys"] += 1
    else:
        take_gems_by_keyboard(page)
        played["takes"] += 1
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", str(before))


def test_a_whole_game_played_with_the_keyboard_alone(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    alice = make_player("alice")
    game = create_game(UserSeat(alice), BotSeat("greedy"), creator=alice, seed=SEED)
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    log_in(page, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    expect(page.locator(".game")).to_have_attribute("data-push", "open")

    # Escape closes a card opened with Enter, and nothing is played.
    press_on(page, "#region-board .card.has-actions")
    expect(page.locator(".card.is-open")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".card.is-open")).to_have_count(0)
    assert version_shown(page) == Game.objects.get(pk=game.pk).version

    played = {"takes": 0, "buys": 0, "returns": 0, "noble choices": 0}
    for _ in range(MOVE_BOUND):
        expect(page.locator(".headline")).to_have_text(re.compile("^Your turn|^Game over"))
        latest = Game.objects.get(pk=game.pk)
        if latest.status != Status.ACTIVE:
            break
        expect(page.locator("#region-status")).to_have_attribute(
            "data-version", str(latest.version)
        )
        play_one_turn_by_keyboard(page, played)
    else:
        pytest.fail(f"the game did not end within {MOVE_BOUND} moves")

    expect(page.locator(".result-headline")).to_be_visible()
    assert min(played["takes"], played["buys"], played["returns"]) > 0, played


def test_choosing_between_two_nobles_with_the_keyboard(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = game_at("choose_noble", UserSeat(alice), UserSeat(bob), creator=alice)
    page = new_context(viewport={"width": 1366, "height": 768}).new_page()
    log_in(page, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    choices = page.locator("#region-decision .noble-choice")
    expect(choices).to_have_count(2)
    second = choices.nth(1).locator(".noble").get_attribute("data-noble")

    tab_to(page, "#region-decision .noble-choice button")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")

    expect(page.locator("#region-decision")).to_be_hidden()
    expect(page.locator(f".player.is-viewer .noble[data-noble='{second}']")).to_be_visible()
