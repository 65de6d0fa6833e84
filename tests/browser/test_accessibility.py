"""Every kind of page a player meets has no serious or critical accessibility violation that
axe-core can find, at a laptop's 1366×768: the lobby, the new-game form, both games' tables in
the middle of a game, the replay, the statistics, the lists of games, a player's page, the
sign-in form and both games' "How to play" pages. A failure lists each violation's rule,
element and axe's summary."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from analytics import projections
from games.commands.lobby import BotSeat, UserSeat
from testing import synthetic
from tests.browser.accessibility import blocking_violations, describe_violations
from tests.browser.conftest import log_in
from tests.browser.test_duel_one_screen import duel_in_progress
from tests.browser.test_one_screen import four_player_game_in_progress
from tests.browser.test_stats_pages import START
from tests.finished_games import finished_game
from tests.web.tables import create_game, game_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


def open_as(new_context: Callable[..., BrowserContext], base: str, username: str | None) -> Page:
    page = new_context(viewport=LAPTOP).new_page()
    if username:
        log_in(page, base, username)
    return page


def assert_no_blocking_violations(page: Page) -> None:
    found = blocking_violations(page)
    assert not found, "serious or critical accessibility violations:\n" + describe_violations(found)


@pytest.fixture
def alice(make_player: Callable[[str], User]) -> User:
    return make_player("alice")


@pytest.fixture
def bob(make_player: Callable[[str], User]) -> User:
    return make_player("bob")


def test_the_lobby_and_the_new_game_form(
    asgi_server: str, new_context: Callable[..., BrowserContext], alice: User
) -> None:
    create_game(UserSeat(alice), BotSeat("greedy"), creator=alice)
    page = open_as(new_context, asgi_server, "alice")
    expect(page.locator(".game-row")).not_to_have_count(0)
    assert_no_blocking_violations(page)

    page.goto(f"{asgi_server}/games/new/")
    expect(page.locator("select[name=seat_1]")).to_be_visible()
    assert_no_blocking_violations(page)


def test_the_base_game_s_table_in_the_middle_of_a_game(
    asgi_server: str, new_context: Callable[..., BrowserContext], alice: User, bob: User
) -> None:
    crowded = four_player_game_in_progress(alice)
    page = open_as(new_context, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{crowded.pk}/")
    expect(page.locator(".headline")).to_have_text("Your turn")
    assert_no_blocking_violations(page)

    # A game of two, with a card's choices open and a gem ticked in the bank.
    game = game_at("can_buy", UserSeat(alice), UserSeat(bob), creator=alice)
    page.goto(f"{asgi_server}/games/{game.pk}/")
    expect(page.locator(".headline")).to_have_text("Your turn")
    page.locator(".take-form input[name=gems]").first.check()
    page.locator("#region-board .card.has-actions").first.click()
    expect(page.locator(".card.is-open .card-actions")).to_be_visible()
    assert_no_blocking_violations(page)


def test_the_duel_table_in_the_middle_of_a_game(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = duel_in_progress(make_player("dora"), make_player("eve"))
    page = open_as(new_context, asgi_server, "dora")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    expect(page.locator(".headline")).to_have_text("Your turn")
    assert_no_blocking_violations(page)


def test_the_replay_and_the_lists_of_games(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    alice: User,
    bob: User,
) -> None:
    game = finished_game([alice, bob], 17)
    create_game(UserSeat(alice), BotSeat("random"), creator=alice)
    page = open_as(new_context, asgi_server, "alice")
    page.goto(f"{asgi_server}/games/{game.pk}/replay/?step=12")
    expect(page.locator("#replay-stage")).to_have_attribute("data-step", "12")
    assert_no_blocking_violations(page)
    for path in ("/games/mine/", "/games/finished/", "/players/bob/"):
        page.goto(f"{asgi_server}{path}")
        expect(page.locator("table").first).to_be_visible()
        assert_no_blocking_violations(page)


def test_the_statistics_page(asgi_server: str, new_context: Callable[..., BrowserContext]) -> None:
    bot = synthetic.SeatPlan(bot_level="random")
    plans = [synthetic.GamePlan(seats=[bot, bot], seed=seed) for seed in (1, 2)]
    plans.append(synthetic.GamePlan(seats=[bot, bot, bot], seed=3))
    synthetic.write_games(plans, start=START)
    projections.rebuild()
    page = open_as(new_context, asgi_server, None)
    page.goto(f"{asgi_server}/stats/")
    expect(page.locator(".stats-summary")).to_contain_text("3 finished games")
    assert_no_blocking_violations(page)


def test_the_duel_statistics_and_a_player_page_of_both_games(
    asgi_server: str, new_context: Callable[..., BrowserContext], alice: User
) -> None:
    bot, seat = synthetic.SeatPlan(bot_level="random"), synthetic.SeatPlan(user_id=alice.pk)
    plans = [
        synthetic.GamePlan(seats=[seat, bot], seed=seed, variant=variant)
        for variant in ("splendor", "duel")
        for seed in (1, 2)
    ]
    synthetic.write_games(plans, start=START)
    projections.rebuild()
    page = open_as(new_context, asgi_server, None)
    page.goto(f"{asgi_server}/stats/?variant=duel")
    expect(page.locator(".stats-summary")).to_contain_text("2 finished games")
    assert_no_blocking_violations(page)
    page.goto(f"{asgi_server}/stats/players/{alice.pk}/")
    expect(page.locator("section.player-game")).to_have_count(2)
    assert_no_blocking_violations(page)


def test_the_sign_in_form(asgi_server: str, new_context: Callable[..., BrowserContext]) -> None:
    page = open_as(new_context, asgi_server, None)
    page.goto(f"{asgi_server}/accounts/login/")
    expect(page.locator("input[name=username]")).to_be_visible()
    assert_no_blocking_violations(page)


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_the_how_to_play_pages(
    asgi_server: str, new_context: Callable[..., BrowserContext], variant: str
) -> None:
    page = open_as(new_context, asgi_server, None)
    page.goto(f"{asgi_server}/how-to-play/{variant}/")
    expect(page.locator("figure.how-figure")).to_have_count(5)
    assert_no_blocking_violations(page)
