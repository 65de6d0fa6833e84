"""The base game's table keeps every word readable and every click honest: a panel's facts are
never cut by the flag of a player who moved, a card's flags cover neither its cost nor what it
needs, and the ×2 button says that it replaces the gems already ticked."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games import engine
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import loading
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_duel_one_screen import overlap
from tests.browser.test_one_screen import four_player_game_in_progress
from tests.web.tables import act, game_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_game(
    new_context: Callable[..., BrowserContext],
    base: str,
    game: Game,
    viewport: dict[str, int],
) -> Page:
    page = new_context(viewport=viewport).new_page()
    log_in(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator(".headline")).to_have_text("Your turn")
    return page


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1280, 720)])
def test_a_panel_s_facts_show_whole_beside_the_moved_flag(
    width: int,
    height: int,
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = four_player_game_in_progress(make_player("alice"))
    page = open_game(new_context, asgi_server, game, {"width": width, "height": height})
    expect(page.locator(".player .flag--new")).to_have_count(3)
    screenshot(page, f"table-moved-flags-{width}x{height}")

    for facts in page.locator(".player-facts").all():
        expect(facts).to_contain_text("Reserved")
        cut = facts.evaluate(
            "(facts) => [...facts.children].filter((fact) =>"
            " fact.getBoundingClientRect().right > facts.getBoundingClientRect().right + 0.5"
            " || fact.scrollWidth > fact.clientWidth).map((fact) => fact.textContent)"
        )
        assert cut == [], f"cut short: {cut}"
        assert facts.evaluate("(facts) => facts.scrollWidth <= facts.clientWidth")


def two_moves_that_deal_cards(game: Game) -> Game:
    """The seat to act buys (or reserves) a card, then the next reserves one: two new cards."""
    for preferred in ("buy_card", "reserve_card"):
        state = loading.game_state(Game.objects.get(pk=game.pk))
        assert state is not None
        legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
        chosen = [action for action in legal if action["type"] == preferred]
        game = act(game, (chosen or [a for a in legal if a["type"] == "reserve_card"])[0])
    return game


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_a_card_s_flags_cover_neither_its_cost_nor_what_it_needs(
    width: int,
    height: int,
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = game_at("can_buy", UserSeat(alice), UserSeat(bob), creator=alice)
    page = open_game(new_context, asgi_server, game, {"width": width, "height": height})
    game = two_moves_that_deal_cards(game)
    page.reload()
    expect(page.locator("#region-board .card .flag--new")).not_to_have_count(0)
    screenshot(page, f"table-new-cards-{width}x{height}")
    flagged = page.locator("#region-board .card:has(.card-flags)")
    for card in flagged.all():
        card.scroll_into_view_if_needed()
        flags = card.locator(".card-flags").bounding_box()
        assert flags is not None
        for part in card.locator(".card-needs, .card-cost .gem").all():
            box = part.bounding_box()
            assert box is not None
            assert not overlap(flags, box), f"card {card.get_attribute('data-card')} {flags} {box}"


def test_the_two_of_a_colour_button_says_it_replaces_the_gems_ticked(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = game_at("can_buy", UserSeat(alice), UserSeat(bob), creator=alice)
    page = open_game(new_context, asgi_server, game, {"width": 1366, "height": 768})
    two = page.locator(".take-two").first
    expect(two).to_be_visible()
    colour = two.get_attribute("value")
    others = page.locator(f".take-form input[name=gems]:not([value={colour}])")
    ticked = [others.nth(index).get_attribute("value") for index in range(2)]
    for index in range(2):
        others.nth(index).check()

    replaced = f"instead of {ticked[0]} and {ticked[1]}"
    expect(two).to_have_attribute("title", re.compile(f"^Take two {colour}.* {replaced}$"))
    expect(two).to_have_accessible_name(re.compile(f"^Take two {colour}.* {replaced}$"))
    expect(page.locator(".take-hint")).to_contain_text("×2 takes two of one colour instead")

    before = page.locator("#region-status").get_attribute("data-version")
    two.click()
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", before or "")
    expect(page.locator("#region-log")).to_contain_text(f"alice took two {colour}")


def test_a_choice_not_offered_says_why(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    game = four_player_game_in_progress(make_player("alice"))  # alice holds three reserved
    page = open_game(new_context, asgi_server, game, {"width": 1366, "height": 768})

    blind = page.locator("#region-board .deck .btn-reserve")
    expect(blind).to_have_count(3)
    for index in range(3):
        expect(blind.nth(index)).to_be_disabled()
        expect(blind.nth(index)).to_have_attribute("title", "Reserve blind: three reserved already")
    scarce = page.locator("#region-supply .take-two-off")
    expect(scarce).not_to_have_count(0)
    expect(scarce.first).to_be_disabled()
    expect(scarce.first).to_have_accessible_description(
        re.compile(r"^Take two \w+ \(\w+\): two need four in the bank, (\d|none) left$")
    )
    expect(page.locator("#region-supply .token-choice.is-off").last).to_have_attribute(
        "title", "Gold comes only with a reserve"
    )
    screenshot(page, "table-why-not-1366x768")
