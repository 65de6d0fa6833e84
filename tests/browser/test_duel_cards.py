"""Splendor Duel's cards are cards: colour, points, crowns, ability and cost; the affordable
ones marked and the others saying what is missing; a click (or Enter) on a card offers its move,
which is sent as the grouped list's own button would send it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games import engine
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent, Seat
from games.reads import loading
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_duel_one_screen import reserve_then_buy, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def duel_where_i_can_buy(me: User, friend: User) -> tuple[Game, list[int]]:
    """A Duel on ``me``'s turn where some card of the pyramid is theirs to buy; those cards.

    ``me`` takes the longest lines and buys nothing until then; the friend reserves and buys.
    """
    game = lobby.game_create(variant="duel", seats=[UserSeat(me), UserSeat(friend)],
                             created_by=me, seed=20_26)  # fmt: skip
    for _ in range(80):
        state = loading.game_state(game)
        assert state is not None
        legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
        view = engine.view(state, None)
        seat = Seat.objects.select_related("user").get(game=game, index=game.acting_seat)
        pyramid = {item["id"] for row in view["pyramid"] for item in row if item}
        buys = sorted(
            {a["card"] for a in legal if a["type"] == "buy_card" and a["card"] in pyramid}
        )
        if seat.user == me and buys and view["phase"] == "main":
            return game, buys
        if seat.user == me:
            lines = [action for action in legal if action["type"] == "take_tokens"]
            action = max(lines, key=lambda item: len(item["spaces"])) if lines else legal[0]
        else:
            action = reserve_then_buy(view, legal, seat.index)
        play.game_take_action(
            game_id=game.pk, action=action, expected_version=game.version, user=seat.user
        )
        game = Game.objects.get(pk=game.pk)
        assert game.status == "active"
    raise AssertionError("no position where the first player can buy")


def bought(game: Game) -> list[int]:
    return [
        event.payload["action"]["card"]
        for event in GameEvent.objects.filter(game=game, kind="ActionTaken").order_by("seq")
        if event.payload["action"]["type"] == "buy_card"
        and event.seat is not None
        and Seat.objects.get(game=game, index=event.seat).user is not None
        and Seat.objects.get(game=game, index=event.seat).user.username == "dora"
    ]


def open_page(new_context: Callable[..., BrowserContext], url: str, game: Game) -> Page:
    page = new_context(**LAPTOP).new_page()
    log_in(page, url, "dora")
    page.goto(f"{url}/games/{game.pk}/")
    return page


@pytest.mark.parametrize("by_keyboard", [False, True], ids=["click", "enter"])
def test_an_affordable_card_is_marked_and_bought_from_the_card_itself(
    by_keyboard: bool,
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game, buys = duel_where_i_can_buy(make_player("dora"), make_player("eve"))
    page = open_page(new_context, asgi_server, game)
    errors = watch_errors(page)
    expect(page.locator(".headline")).to_have_text("Your turn")

    pyramid = page.locator("#region-pyramid")
    affordable = pyramid.locator(".card.is-affordable")
    assert sorted(int(card) for card in affordable.evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)")) == buys  # fmt: skip
    # Every other face-up card says what it lacks, in tokens per colour ("needs 2R 1P").
    others = pyramid.locator(".card[data-card]:not(.is-affordable)")
    for index in range(others.count()):
        expect(others.nth(index).locator(".card-needs")).to_have_text(
            re.compile(r"^needs (a card with a bonus|(\d+[WBGRKP] ?)+)")
        )
    screenshot(page, "duel-cards-affordable-1366x768")

    card = pyramid.locator(f".card[data-card='{buys[0]}']")
    if by_keyboard:
        card.focus()
        page.keyboard.press("Enter")
    else:
        card.click()
    buy = card.locator(".card-actions .btn-buy").first
    expect(buy).to_be_visible()
    expect(card).to_have_attribute("aria-expanded", "true")
    before = page.locator("#region-status").get_attribute("data-version")
    if by_keyboard:
        expect(buy).to_be_focused()
        page.keyboard.press("Enter")
    else:
        buy.click()
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", before or "")
    assert bought(game) == [buys[0]]
    expect(page.locator(f"#region-pyramid .card[data-card='{buys[0]}']")).to_have_count(0)
    mine = page.locator("#region-players .duel-player.is-viewer")
    expect(mine.locator(".duel-colours")).to_contain_text("1 card")
    assert errors == []


def test_cards_and_royals_are_named_as_the_rulebook_names_them(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game, _buys = duel_where_i_can_buy(make_player("dora"), make_player("eve"))
    page = open_page(new_context, asgi_server, game)
    state = loading.game_state(game)
    assert state is not None
    view = engine.view(state, None)
    shown = [item for row in view["pyramid"] for item in row if item]

    text = (
        page.locator("#region-pyramid").inner_text() + page.locator("#region-players").inner_text()
    )
    assert not re.search(r"\bnone\b", text)
    for item in shown:
        card = page.locator(f"#region-pyramid .card[data-card='{item['id']}']")
        words = card.locator("p.visually-hidden").text_content() or ""
        expected: dict[str | None, str] = {"joker": "5-Gem card", None: "no bonus card"}
        assert expected.get(item["colour"], f"{item['colour']} card") in words
        if item["crowns"]:
            expect(card.locator(".duel-crowns")).to_have_text("♛" * item["crowns"])
        if item["ability"] != "none":
            name = {"extra_turn": "Refresh", "take_token": "Gem", "privilege": "Privilege",
                    "steal": "Take"}[item["ability"]]  # fmt: skip
            assert f"ability {name}:" in words
        expect(card.locator(".card-cost li")).to_have_count(len(item["cost"]))
    royals = page.locator("#region-pyramid .duel-royal")
    expect(royals).to_have_count(len(view["royals"]))
    for royal in view["royals"]:
        tile = page.locator(f"#region-pyramid .duel-royal[data-royal='{royal['id']}']")
        expect(tile.locator(".duel-royal-points")).to_have_text(str(royal["points"]))
        if royal["ability"] != "none":
            expect(tile.locator(".duel-ability")).to_have_count(1)


def test_without_javascript_the_grouped_buttons_play_and_the_card_moves_are_hidden(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game, buys = duel_where_i_can_buy(make_player("dora"), make_player("eve"))
    page = new_context(java_script_enabled=False, **LAPTOP).new_page()
    log_in(page, asgi_server, "dora")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    card = page.locator(f"#region-pyramid .card[data-card='{buys[0]}']")
    expect(card.locator(".card-actions")).to_be_hidden()
    buying = page.locator("details.duel-choices[data-kind='buy_card']")
    buying.locator("summary").click()
    buying.locator("form button").first.click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    assert len(bought(game)) == 1
