"""A finished Duel replayed in a browser: at every step the token board, the pyramid and both
players' panels as the Duel table draws them, the panels' figures those of that step, all in
view beside the move list on a laptop and one below the other on a phone; no console error, no
CSP violation, nothing axe-core finds serious."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import timeline
from games.variants.duel.cards import TOKEN_COLOURS
from games.vocabulary import Status
from tests.browser.accessibility import blocking_violations, describe_violations
from tests.browser.conftest import screenshot
from tests.browser.console import ConsoleWatch
from tests.browser.test_duel_one_screen import box, overlap, union
from tests.browser.test_one_screen import boxes_outside_the_viewport
from tests.finished_games import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STAGE = "#replay-stage"
PANEL = "#region-players .duel-player[data-seat='{}']"
IN_VIEW = ["#region-board", PANEL.format(0), PANEL.format(1)]


def finished_duel(alice: User, bob: User, seed: int) -> Game:
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=seed)  # fmt: skip
    finished = play(game, random.Random(seed))
    assert finished.status == Status.FINISHED
    return finished


def panel_figures(page: Page, seat: int) -> dict[str, Any]:
    """What a panel says its player holds: tokens per colour, goals, reserved cards."""
    panel = page.locator(PANEL.format(seat))
    tokens = panel.locator(".duel-colours tbody tr").first.locator("td")
    return {
        "tokens": [int(text) for text in tokens.all_inner_texts()[: len(TOKEN_COLOURS)]],
        "goals": [int(text) for text in panel.locator(".duel-goal b").all_inner_texts()],
        "reserved": panel.locator(".duel-reserved > .card").count(),
    }


def figures_at(game: Game, step: int, seat: int) -> dict[str, Any]:
    """The same figures, from the engine's view of the game at ``step``."""
    player = timeline.replay_step_for_viewer(game, None, step)["state"]["players"][seat]
    best_colour = max(player["colour_points"].values(), default=0)
    return {
        "tokens": [player["tokens"].get(colour, 0) for colour in TOKEN_COLOURS],
        "goals": [player["points"], player["crowns"], best_colour, player["privileges"]],
        "reserved": len(player["reserved"]),
    }


def shows_step(page: Page, game: Game, step: int) -> list[dict[str, Any]]:
    """Check the stage shows ``step``: both panels with that step's figures, the board, both
    panels and the pyramid apart, and the board and the panels in view. The panels' figures."""
    expect(page.locator(STAGE)).to_have_attribute("data-step", str(step))
    figures = [panel_figures(page, seat) for seat in (0, 1)]
    assert figures == [figures_at(game, step, seat) for seat in (0, 1)], f"step {step}"
    assert boxes_outside_the_viewport(page, IN_VIEW) == [], f"step {step}"
    parts = {
        "board": box(page, "#region-board"),
        "pyramid": union(page, "#region-pyramid .duel-pyramid-row"),
        "first panel": box(page, PANEL.format(0)),
        "second panel": box(page, PANEL.format(1)),
        "moves": box(page, ".replay-move-list"),
    }
    names = list(parts)
    overlapping = [
        (one, two)
        for index, one in enumerate(names)
        for two in names[index + 1 :]
        if overlap(parts[one], parts[two])
    ]
    assert overlapping == [], f"step {step}: {parts}"
    return figures


def test_a_finished_duel_is_replayed_step_by_step_with_the_board_and_both_panels(
    live_server: LiveServer,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = finished_duel(make_player("alice"), make_player("bob"), 31)
    last = timeline.game_timeline_for_viewer(game, None).last_step
    middle = last // 2
    context = new_context(viewport={"width": 1366, "height": 768})
    console = ConsoleWatch.on(context)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")

    at_the_deal = shows_step(page, game, 0)
    for step in (1, 2, 3):
        page.click("a[data-replay-next]")
        shows_step(page, game, step)
    page.click("a[data-replay-prev]")
    shows_step(page, game, 2)
    page.locator("[data-replay-slider]").fill(str(middle))
    in_the_middle = shows_step(page, game, middle)
    assert in_the_middle != at_the_deal
    page.click("a[data-replay-next]")
    shows_step(page, game, middle + 1)
    screenshot(page, "duel-replay-1366x768")
    found = blocking_violations(page)
    assert not found, describe_violations(found)
    page.click("a:has-text('End »')")
    shows_step(page, game, last)
    # Every card on the table is face up or a deck's back: the replay draws no hidden card.
    expect(page.locator(f"{STAGE} .duel-reserved .card-back")).to_have_count(0)
    assert console.problems() == []


def test_a_duel_replay_on_a_phone_shows_the_board_then_the_pyramid_then_both_panels(
    live_server: LiveServer,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    game = finished_duel(make_player("alice"), make_player("bob"), 31)
    middle = timeline.game_timeline_for_viewer(game, None).last_step // 2
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    console = ConsoleWatch.on(context)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?step={middle}")
    page.click("a[data-replay-next]")
    expect(page.locator(STAGE)).to_have_attribute("data-step", str(middle + 1))
    screenshot(page, "duel-replay-390x844")

    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    board, pyramid = box(page, "#region-board"), union(page, "#region-pyramid .duel-pyramid-row")
    panels = [box(page, PANEL.format(seat)) for seat in (0, 1)]
    assert board["y"] + board["height"] <= pyramid["y"]
    assert pyramid["y"] + pyramid["height"] <= panels[0]["y"]
    assert panels[0]["y"] + panels[0]["height"] <= panels[1]["y"]
    for part in (board, pyramid, *panels):
        assert part["x"] >= 0, part
        assert part["x"] + part["width"] <= 390, part
    for seat in (0, 1):
        assert panel_figures(page, seat) == figures_at(game, middle + 1, seat)
    assert console.problems() == []
