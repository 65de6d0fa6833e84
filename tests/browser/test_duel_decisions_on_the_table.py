"""Splendor Duel: every decision besides lines and cards is made by a click on the thing itself,
at 1366×768: a gold of the board taken to reserve a card (then the card or a deck clicked), a
privilege spent on a token of the board, the bag to replenish, the joker's colour among one's
bonuses, the token matching the card just bought, the opponent's token to take, the
royal chosen, and the tokens put back above ten (picked in one's own panel, then confirmed).

Each test starts a Duel between two people at a position built for it (``tests.duel.decisions``),
plays the move that leads to the decision through the service, opens the table and makes the
decision there. The click sends the same move as the decision's button in the grouped list
(which stays, closed, for a page without the script: see
``tests/duel/test_duel_decisions_on_the_page.py``); the game moves on, and no console error nor
CSP violation is reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Locator, Page, expect

from games.engine.duel.state import DuelState
from games.models import Game, GameEvent
from games.variants.duel.words import space_name
from tests.browser.accessibility import blocking_violations, describe_violations
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_duel_one_screen import PANELS, watch_errors
from tests.duel.decisions import (
    AFTER_A_PURCHASE,
    NINE_TOKENS,
    THREE_RESERVED,
    WITH_A_BAG,
    WITH_A_PRIVILEGE,
    Pick,
    duel_at,
    takes_the_top_row,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
MINE = f"{PANELS}.is-viewer"
THEIRS = f"{PANELS}:not(.is-viewer)"


class Table:
    """Alice's page of a Duel she plays against Bob, and what the page reported to its console."""

    def __init__(self, page: Page, game: Game, errors: list[str]) -> None:
        self.page, self.game, self.errors = page, game, errors

    def decided(self, click: Callable[[], None]) -> dict[str, Any]:
        """Make the decision by ``click``: the page then shows a later version. The move the
        game recorded."""
        status = self.page.locator("#region-status")
        before = status.get_attribute("data-version") or ""
        click()
        expect(status).not_to_have_attribute("data-version", before)
        last = GameEvent.objects.filter(game=self.game, kind="ActionTaken").order_by("-seq")[0]
        action: dict[str, Any] = last.payload["action"]
        return action

    def enabled(self, selector: str) -> Locator:
        return self.page.locator(f"{selector}:not([disabled])")

    def spaces(self, selector: str) -> set[str]:
        found = self.enabled(selector)
        return {
            found.nth(index).get_attribute("data-space") or "" for index in range(found.count())
        }


@pytest.fixture
def table_at(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> Iterator[Callable[..., Table]]:
    """Open Alice's table of a Duel ``duel_at(alice, bob, state, *leading)`` at 1366×768; the
    test fails if a page reports an error to its console."""
    alice, bob = make_player("alice"), make_player("bob")
    tables: list[Table] = []

    def open_table(state: DuelState, *leading: Pick) -> Table:
        game = duel_at(alice, bob, state, *leading)
        page = new_context(**LAPTOP).new_page()
        errors = watch_errors(page)
        log_in(page, asgi_server, "alice")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        expect(page.locator("[data-live][data-ready='true']")).to_have_count(1)
        table = Table(page, game, errors)
        tables.append(table)
        return table

    yield open_table
    for table in tables:
        assert table.errors == []


def the_decision_s_list_is_closed_and_the_table_says_what_to_click(table: Table, hint: str) -> None:
    expect(table.page.locator(".duel-table-hint")).to_have_text(hint)
    expect(table.page.locator(".decision details.duel-choices[open]")).to_have_count(0)


def test_a_privilege_is_spent_by_clicking_the_token_it_takes(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(WITH_A_PRIVILEGE)
    page = table.page
    tokens = page.locator(".duel-space:has(.gem):not(:has(.gem--gold))")
    takeable = {tokens.nth(index).get_attribute("data-space") for index in range(tokens.count())}
    assert len(takeable) == 22  # a full board but its three gold
    lines = table.spaces(".duel-token")
    spend = page.locator(".duel-privilege-spend")

    spend.click()
    expect(spend).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".duel-line-hint")).to_have_text(re.compile("^Spend a privilege"))
    assert table.spaces(".duel-token") == takeable  # every token but a gold, none twice
    page.locator(".duel-line-clear").click()  # Clear goes back to picking a line
    expect(spend).to_have_attribute("aria-pressed", "false")
    assert table.spaces(".duel-token") == lines

    spend.click()
    space = sorted(takeable)[0]
    token = page.locator(f".duel-token[data-space='{space}']")
    screenshot(page, "duel-privilege-spent-on-a-token")
    made = table.decided(lambda: (token.focus(), page.keyboard.press("Enter")))
    assert made["type"] == "use_privilege"
    assert space_name(made["space"]) == space
    expect(page.locator(f"{MINE} .duel-goal--privileges b")).to_have_text("0")
    expect(page.locator(f".duel-space[data-space='{space}'] .gem")).to_have_count(0)


def test_the_board_is_replenished_by_clicking_the_bag(table_at: Callable[..., Table]) -> None:
    table = table_at(WITH_A_BAG)
    bag = table.page.locator("#region-board .duel-bag")
    expect(bag).to_be_enabled()

    assert table.decided(bag.click) == {"type": "replenish"}
    expect(table.page.locator("#region-board .duel-bag b")).to_have_text("0")
    expect(table.page.locator(f"{THEIRS} .duel-goal--privileges b")).to_have_text("1")


def test_the_joker_takes_the_colour_clicked_among_my_bonuses(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(*AFTER_A_PURCHASE["choose_joker_colour"])  # white and blue bonuses
    the_decision_s_list_is_closed_and_the_table_says_what_to_click(
        table, "Click one of your bonus colours in your panel."
    )
    chips = table.enabled(f"{MINE} .duel-chip")
    expect(chips).to_have_count(2)
    assert {chips.nth(index).get_attribute("data-colour") for index in range(2)} == {
        "white",
        "blue",
    }
    expect(table.page.locator(f"{THEIRS} .duel-chip")).to_have_count(0)
    screenshot(table.page, "duel-joker-colour-on-the-table")

    made = table.decided(table.page.locator(f"{MINE} .duel-chip[data-colour='blue']").click)
    assert made == {"type": "choose_joker_colour", "colour": "blue"}
    bonuses = table.page.locator(f"{MINE} .duel-colours tbody tr").nth(1).locator("td")
    expect(bonuses.nth(1)).to_have_text("2")


def test_the_matching_token_is_clicked_on_the_board(table_at: Callable[..., Table]) -> None:
    table = table_at(*AFTER_A_PURCHASE["take_matching_token"])  # a white card
    the_decision_s_list_is_closed_and_the_table_says_what_to_click(
        table, "Click a token of the card's colour on the board."
    )
    offered = table.spaces(".duel-token.duel-pick")
    whites = table.page.locator(".duel-space:has(.gem--white)")
    assert offered == {
        whites.nth(index).get_attribute("data-space") for index in range(whites.count())
    }
    assert len(offered) == 4
    space = sorted(offered)[-1]

    made = table.decided(table.page.locator(f".duel-token[data-space='{space}']").click)
    assert made["type"] == "take_matching_token"
    assert space_name(made["space"]) == space
    tokens = table.page.locator(f"{MINE} .duel-colours tbody tr").first.locator("td")
    expect(tokens.first).to_have_text("1")


def test_the_token_taken_from_the_opponent_is_clicked_in_their_panel(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(*AFTER_A_PURCHASE["steal_token"])  # Bob holds green and pearl
    the_decision_s_list_is_closed_and_the_table_says_what_to_click(
        table, "Click a token in your opponent's panel."
    )
    chips = table.enabled(f"{THEIRS} .duel-chip")
    assert {chips.nth(index).get_attribute("data-colour") for index in range(chips.count())} == {
        "green",
        "pearl",
    }
    expect(table.page.locator(f"{MINE} .duel-chip")).to_have_count(0)

    made = table.decided(table.page.locator(f"{THEIRS} .duel-chip[data-colour='pearl']").click)
    assert made == {"type": "steal_token", "colour": "pearl"}
    theirs = table.page.locator(f"{THEIRS} .duel-colours tbody tr").first.locator("td")
    expect(theirs.nth(5)).to_have_text("0")


def test_the_royal_is_chosen_by_clicking_its_tile(table_at: Callable[..., Table]) -> None:
    table = table_at(*AFTER_A_PURCHASE["choose_royal"])  # a third crown
    the_decision_s_list_is_closed_and_the_table_says_what_to_click(
        table, "Click the royal you choose."
    )
    royals = table.enabled("#region-pyramid .duel-royal")
    expect(royals).to_have_count(4)
    screenshot(table.page, "duel-royal-on-the-table")

    royal = table.page.locator("#region-pyramid .duel-royal[data-royal='3']")
    made = table.decided(lambda: (royal.focus(), table.page.keyboard.press("Space")))
    assert made == {"type": "choose_royal", "royal": 3}
    expect(table.page.locator(f"{MINE} .duel-royal[data-royal='3']")).to_have_count(1)
    expect(table.page.locator("#region-pyramid .duel-royal")).to_have_count(3)


def test_tokens_put_back_above_ten_are_clicked_in_my_panel_then_confirmed(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(NINE_TOKENS, takes_the_top_row)  # white, white, blue: two go back
    page = table.page
    the_decision_s_list_is_closed_and_the_table_says_what_to_click(
        table, "Click tokens in your panel, then put them back."
    )
    form = page.locator(f"{MINE} .duel-put-back-form")
    confirm = form.locator(".duel-put-back-confirm")
    expect(form).to_be_visible()
    expect(confirm).to_be_disabled()
    expect(page.locator(f"{THEIRS} .duel-put-back")).to_have_count(0)
    black = page.locator(f"{MINE} .duel-put-back[data-colour='black']")
    white = page.locator(f"{MINE} .duel-put-back[data-colour='white']")

    black.click()
    expect(black).to_be_disabled()  # all the black held is picked
    expect(confirm).to_be_disabled()
    form.locator(".duel-put-back-clear").click()
    expect(black).to_be_enabled()
    white.click()
    expect(form.locator(".duel-put-back-hint")).to_have_text(re.compile("^Put 1 more back"))
    white.click()
    expect(form.locator(".duel-put-back-hint")).to_have_text("Ready: put back 2 white.")
    expect(page.locator(f"{MINE} .duel-put-back:not([disabled])")).to_have_count(0)
    expect(confirm).to_be_focused()
    screenshot(page, "duel-tokens-put-back-in-my-panel")

    made = table.decided(confirm.click)
    assert made == {"type": "discard_tokens", "tokens": {"white": 2}}
    expect(page.locator(f"{MINE} .duel-colours tbody .duel-colours-total").first).to_have_text(
        "10/10"
    )
    expect(page.locator(".headline")).to_have_text(re.compile("^Waiting for"))


GOLDS = "#region-board .duel-gold"
RESERVE_HINT = "Click a card of the pyramid, or a deck's Reserve unseen, to reserve it."


def my_gold(page: Page) -> Locator:
    return page.locator(f"{MINE} .duel-colours tbody tr").first.locator("td").nth(6)


def test_a_gold_is_taken_with_the_keyboard_then_a_card_of_the_pyramid_reserved_by_click(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(WITH_A_PRIVILEGE)  # a full board, its three golds on C5, D5 and E5
    page = table.page
    assert table.spaces(GOLDS) == {"C5", "D5", "E5"}
    # Spending a privilege, the next token clicked is the privilege's: no gold is offered.
    spend = page.locator(".duel-privilege-spend")
    spend.click()
    assert table.spaces(GOLDS) == set()
    spend.click()
    assert table.spaces(GOLDS) == {"C5", "D5", "E5"}
    # Picking a line does not pick a gold, nor take it away.
    page.locator(".duel-token[data-space='A1']").click()
    assert table.spaces(GOLDS) == {"C5", "D5", "E5"}

    gold = page.locator(f"{GOLDS}[data-space='D5']")
    expect(gold).to_have_attribute("aria-label", "Take the gold on D5, then reserve a card")
    made = table.decided(lambda: (gold.focus(), page.keyboard.press("Enter")))
    assert made == {"type": "take_gold", "space": [4, 3]}
    expect(page.locator(".headline")).to_have_text("Your turn: reserve a card with your gold")
    the_decision_s_list_is_closed_and_the_table_says_what_to_click(table, RESERVE_HINT)
    expect(my_gold(page)).to_have_text("1")
    expect(page.locator(".duel-space[data-space='D5'] .gem")).to_have_count(0)
    expect(page.locator(GOLDS)).to_have_count(0)  # one gold a turn
    screenshot(page, "duel-gold-taken-a-card-to-reserve")

    card = page.locator("#region-pyramid .duel-pyramid-row--2 [data-card].has-actions").first
    chosen = int(card.get_attribute("data-card") or -1)
    card.click()
    made = table.decided(card.locator(".btn-reserve").click)
    assert made == {"type": "reserve_card", "card": chosen}
    expect(page.locator(f"{MINE} .duel-reserved [data-card='{chosen}']")).to_have_count(1)
    expect(page.locator(".headline")).to_have_text(re.compile("^Waiting for"))


def test_a_gold_is_taken_by_a_click_then_a_deck_s_top_card_reserved_unseen(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(WITH_A_PRIVILEGE)
    page = table.page

    made = table.decided(page.locator(f"{GOLDS}[data-space='E5']").click)
    assert made == {"type": "take_gold", "space": [4, 4]}
    deck = page.locator("#region-pyramid .duel-pyramid-row--3 .duel-deck-move")
    made = table.decided(deck.click)
    assert made == {"type": "reserve_from_deck", "level": 3}
    expect(page.locator(f"{MINE} .duel-reserved [data-card]")).to_have_count(1)
    expect(my_gold(page)).to_have_text("1")


def test_a_gold_that_cannot_be_taken_says_why_and_takes_nothing(
    table_at: Callable[..., Table],
) -> None:
    table = table_at(THREE_RESERVED)
    page = table.page
    expect(page.locator(GOLDS)).to_have_count(0)
    off = page.locator("#region-board .duel-gold-off")
    expect(off).to_have_count(3)
    expect(off.first).to_be_disabled()
    expect(off.first).to_have_attribute("title", "Take this gold: three reserved already")
    expect(off.first).to_have_attribute(
        "aria-label", re.compile(r"^Take the gold on [CDE]5: three reserved already$")
    )
    found = blocking_violations(page)
    assert not found, describe_violations(found)
    before = page.locator("#region-status").get_attribute("data-version")
    off.first.click(force=True)  # a click on it anyway
    page.wait_for_timeout(300)
    expect(page.locator("#region-status")).to_have_attribute("data-version", before or "")
    assert not GameEvent.objects.filter(game=table.game, kind="ActionTaken").exists()
