"""Turn mail follows attention, in a real browser on the ASGI server: two players whose pages
stay open (one of them in a background tab) play on for many presence windows and get no mail;
once one closes the page, the turns that wait for them bring exactly one mail.

The presence window is shortened to a few seconds (the logic is the site's own): an open page
stays present only through its live-update stream's heartbeat, since it never polls.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from playwright.sync_api import BrowserContext, Page, expect

from games import engine, variants
from games.commands import lobby, play
from games.commands.deadline_tasks import apply_turn_deadlines
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import game_view
from games.vocabulary import Status
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PRESENCE_SECONDS = 3.0
MOVES_WITH_PAGES_OPEN = 20
PAUSE_BETWEEN_MOVES = 0.6  # 20 moves take four presence windows and more


@pytest.fixture(autouse=True)
def short_presence(settings: Any) -> None:
    settings.PRESENCE_SECONDS = PRESENCE_SECONDS


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def play_turn(game: Game) -> None:
    """Whoever is to move plays a whole turn (greedy), as their page would send it."""
    game = fresh(game)
    user = game.seats.get(index=game.acting_seat).user
    while True:
        view = game_view.game_view_for_viewer(game, user)["state"]
        action = engine.action_to_json(
            variants.choose_bot_action("greedy", view, seed=game.version)
        )
        play.game_take_action(game_id=game.pk, action=action, expected_version=game.version,
                              user=user)  # fmt: skip
        game = fresh(game)
        if game.status != Status.ACTIVE or game.seats.get(index=game.acting_seat).user != user:
            return


def time_out(game: Game) -> None:
    deadline = fresh(game).turn_deadline
    assert deadline is not None
    assert apply_turn_deadlines(now=(deadline + timedelta(seconds=1)).isoformat()) == 1


def version_shown(page: Page) -> int:
    return int(page.locator("#region-status").get_attribute("data-version") or 0)


def mails_to(user: User) -> int:
    return sum(1 for mail in django_mail.outbox if mail.to == [user.email])


def test_open_pages_get_no_turn_mail_and_a_closed_one_gets_one(
    asgi_server: str,
    new_context: Callable[..., BrowserContext],
    make_player: Callable[[str], User],
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=8, move_seconds=3600)  # fmt: skip
    alice_context, bob_context = new_context(), new_context()
    alice_page, bob_page = alice_context.new_page(), bob_context.new_page()
    for page, name in ((alice_page, "alice"), (bob_page, "bob")):
        log_in(page, asgi_server, name)
        page.goto(f"{asgi_server}/games/{game.pk}/")
        expect(page.locator(".game[data-push=open]")).to_have_count(1)
    bob_context.new_page().bring_to_front()  # bob's game page goes on in a background tab

    started = time.monotonic()
    for _ in range(MOVES_WITH_PAGES_OPEN):
        play_turn(game)
        expect(alice_page.locator("#region-status")).to_have_attribute(
            "data-version", str(fresh(game).version), timeout=10_000
        )
        time.sleep(PAUSE_BETWEEN_MOVES)
    elapsed = time.monotonic() - started

    assert elapsed > 4 * PRESENCE_SECONDS
    assert fresh(game).status == Status.ACTIVE
    assert django_mail.outbox == [], [mail.subject for mail in django_mail.outbox]
    expect(bob_page.locator("#region-status")).to_have_attribute(
        "data-version", str(fresh(game).version), timeout=10_000
    )

    if fresh(game).acting_seat == 1:
        play_turn(game)  # bob moves, then closes his page on alice's turn
    bob_context.close()
    time.sleep(PRESENCE_SECONDS + 1)  # his stream's last heartbeat lapses

    play_turn(game)  # alice: bob's turn, and he is away
    time_out(game)  # he stays away: the Greedy bot plays his turn
    play_turn(game)  # alice: bob's turn again
    time_out(game)  # a second time-out: the bot keeps his seat
    for _ in range(4):
        if fresh(game).acting_seat == 0:
            play_turn(game)

    assert mails_to(bob) == 1
    assert mails_to(alice) == 0
