"""The replay viewer, fork, export and import in a real browser (Chromium through Playwright)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import engine
from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import timeline
from games.vocabulary import Status
from tests.browser.conftest import log_in, screenshot
from tests.finished_games import finished_game, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stage_step(page: Page) -> int:
    return int(page.locator("#replay-stage").get_attribute("data-step") or -1)


def test_step_through_a_finished_game_with_the_keyboard_slider_and_move_list(
    page: Page, live_server: LiveServer, make_player: Callable[[str], User]
) -> None:
    game = finished_game([make_player("alice"), make_player("bob")], 17)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    expect(page.locator(".replay-step")).to_contain_text("Step 0 of")
    first_board = page.locator("#region-board").inner_html()

    for expected in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-stage")).to_have_attribute("data-step", str(expected))
    expect(page).to_have_url(re.compile(r"\?step=3$"))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-stage")).to_have_attribute("data-step", "2")
    expect(page.locator(".replay-moves a[aria-current=step]")).to_have_attribute("data-step", "2")
    words = timeline.replay_step_for_viewer(game, None, 2)["text"]
    expect(page.locator("[data-replay-text]")).to_have_text(words)

    page.locator(".replay-moves a[data-step='12']").click()
    expect(page.locator("#replay-stage")).to_have_attribute("data-step", "12")
    assert page.locator("#region-board").inner_html() != first_board

    page.locator("[data-replay-slider]").fill("20")
    expect(page.locator("#replay-stage")).to_have_attribute("data-step", "20")
    expect(page).to_have_url(re.compile(r"\?step=20$"))
    screenshot(page, "replay")


def test_a_link_to_a_step_opens_that_step_with_or_without_javascript(
    new_context: Callable[..., BrowserContext],
    live_server: LiveServer,
    make_player: Callable[[str], User],
) -> None:
    game = finished_game([make_player("alice"), make_player("bob")], 18)
    url = f"{live_server.url}/games/{game.pk}/replay/?step=7"
    expected = timeline.replay_step_for_viewer(game, None, 7)
    for javascript in (True, False):
        page = new_context(java_script_enabled=javascript).new_page()
        page.goto(url)
        expect(page.locator(".replay-step")).to_have_text(f"Step 7 of {expected['last_step']}")
        expect(page.locator("[data-replay-text]")).to_have_text(expected["text"])
        page.click("a[data-replay-next]")
        expect(page.locator("#replay-stage")).to_have_attribute("data-step", "8")
        expect(page).to_have_url(re.compile(r"\?step=8$"))


def _step_where_seat_0_can_take_three(game: Game) -> int:
    past = timeline.game_timeline_for_viewer(game, None)
    for step, state in enumerate(past.states):
        if step < 4 or engine.acting_seat(state) != 0:
            continue
        legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
        if any(a["type"] == "take_gems" and len(a["gems"]) == 3 for a in legal):
            return step
    raise AssertionError("no step where seat 0 could take three gems")


def test_fork_from_a_step_and_play_the_forks_first_move(
    page: Page, live_server: LiveServer, make_player: Callable[[str], User]
) -> None:
    game = finished_game([make_player("alice"), make_player("bob")], 19)
    make_player("carol")
    step = _step_where_seat_0_can_take_three(game)
    log_in(page, live_server.url, "carol")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?step={step}")
    page.click("a:has-text('Fork from here')")
    page.select_option("select[name=seat_1]", "bot:random")
    page.click("button:has-text('Start the new game')")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    fork = Game.objects.get(origin__kind="fork")
    assert fork.origin == {"kind": "fork", "game": game.pk, "step": step}
    expect(page.locator(".headline")).to_have_text("Your turn")

    form = page.locator(".take-form")
    combination = (form.get_attribute("data-legal-takes") or "").split()[0]
    for colour in combination.split(","):
        form.locator(f"input[name=gems][value={colour}]").check()
    before = page.locator("#region-status").get_attribute("data-version")
    page.click(".take-form .take-selected")
    expect(page.locator("#region-status")).not_to_have_attribute("data-version", before or "")
    expect(page.locator("#region-log")).to_contain_text(
        re.compile(r"carol took (white|blue|green|red|black)")
    )
    moves = Game.objects.get(pk=fork.pk).events.filter(kind="ActionTaken", seat=0)
    assert moves.count() == 1


def test_export_and_reimport_a_game_gives_the_same_final_position(
    page: Page,
    new_context: Callable[..., BrowserContext],
    live_server: LiveServer,
    make_player: Callable[[str], User],
    tmp_path: Path,
) -> None:
    game = finished_game([make_player("alice"), make_player("bob")], 20)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    with page.expect_download() as download:
        page.click("a:has-text('Download JSON')")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)

    page.goto(f"{live_server.url}/games/import/")
    page.set_input_files("input[name=file]", str(saved))
    page.click("button:has-text('Import')")
    page.wait_for_url(re.compile(r"/games/\d+/replay/$"))
    imported = Game.objects.get(origin__kind="import")

    last = timeline.game_timeline_for_viewer(game, None).last_step
    boards = []
    spectator = new_context().new_page()
    for game_id in (game.pk, imported.pk):
        spectator.goto(f"{live_server.url}/games/{game_id}/replay/?step={last}")
        boards.append(spectator.locator("#replay-stage .table").inner_html())
    assert boards[0] == boards[1]
    assert imported.snapshot == Game.objects.get(pk=game.pk).snapshot


@pytest.mark.parametrize("page_name", ["replay", "history"])
def test_a_running_games_history_fits_a_phone_with_its_commitment_wrapped(
    new_context: Callable[..., BrowserContext],
    live_server: LiveServer,
    make_player: Callable[[str], User],
    page_name: str,
) -> None:
    # Until the end only the commitment is shown: 64 hex digits in one word, wider than a phone.
    alice, bob = make_player("alice"), make_player("bob")
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=19
    )
    game = play(game, random.Random(19), moves=6)
    assert game.status == Status.ACTIVE
    assert game.commitment
    page = new_context(viewport={"width": 390, "height": 844}).new_page()

    page.goto(f"{live_server.url}/games/{game.pk}/{page_name}/")

    expect(page.locator("code", has_text=game.commitment)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
