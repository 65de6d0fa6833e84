"""Turn mail respects attention: no mail to a player who is present, one mail per absence.

Present = an open page (its stream's heartbeat), an API client active in the game, or the
creator of a game that just started. Each rule runs on both stores of presence: Redis (one key
per player and game) and the database (embedded mode, no ``REDIS_URL``).
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail

from games.commands import lobby, play
from games.commands.deadline_tasks import apply_turn_deadlines
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game
from games.reads import game_view
from notifications.tasks import send_due_reminders
from tests.notifications.conftest import client_for, visit_and_leave

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = 3600


@pytest.fixture(params=["redis", "database"], autouse=True)
def presence_store(request: pytest.FixtureRequest, settings: Any) -> str:
    if request.param == "database":
        settings.REDIS_URL = ""
    else:
        assert settings.REDIS_URL, "the Redis store needs REDIS_URL"
    return str(request.param)


def invited_game(alice: User, bob: User) -> Game:
    """bob invites alice, who moves first; a time per move lets time-outs play her turns."""
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=bob, seed=21, move_seconds=HOUR)  # fmt: skip
    return Game.objects.get(pk=game.pk)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def take_three(game: Game, user: User) -> None:
    """``user`` plays their turn: three gems if they may, else the first legal action, then
    whatever the turn still asks of them (tokens to give back, a noble to choose)."""
    game = fresh(game)
    legal = game_view.game_legal_actions_for_viewer(game, user)
    action = next((action for action in legal if action["type"] == "take_gems"), legal[0])
    while True:
        play.game_take_action(game_id=game.pk, action=action, expected_version=game.version,
                              user=user)  # fmt: skip
        game = fresh(game)
        legal = game_view.game_legal_actions_for_viewer(game, user)
        if not legal:
            return
        action = legal[0]


def time_out(game: Game) -> None:
    """The player's time runs out: the Greedy bot plays the turn for them."""
    deadline = fresh(game).turn_deadline
    assert deadline is not None
    assert apply_turn_deadlines(now=(deadline + timedelta(seconds=1)).isoformat()) == 1


def mails_to(user: User) -> int:
    return sum(1 for mail in django_mail.outbox if mail.to == [user.email])


def test_away_the_first_turn_mails_the_next_ones_do_not(alice: User, bob: User) -> None:
    game = invited_game(alice, bob)
    assert mails_to(alice) == 1  # away: the first turn that waits for her

    time_out(game)  # she stays away; the bot plays her turn
    visit_and_leave(bob, game)
    take_three(game, bob)

    assert fresh(game).acting_seat == 0  # her turn again, and still away
    assert mails_to(alice) == 1

    started = fresh(game).turn_started_at
    assert started is not None
    assert send_due_reminders(now=(started + timedelta(minutes=46)).isoformat()) == 1
    assert mails_to(alice) == 2  # a reminder is about the deadline: it still comes
    assert django_mail.outbox[-1].subject.startswith("Reminder:")


def test_coming_back_and_leaving_again_brings_one_more_mail(alice: User, bob: User) -> None:
    game = invited_game(alice, bob)
    time_out(game)
    take_three(game, bob)
    assert mails_to(alice) == 1  # one for this absence

    take_three(game, alice)  # she came back to move (from the mail's link), and left
    take_three(game, bob)
    assert mails_to(alice) == 2

    visit_and_leave(alice, game)  # she looks at the page and closes it without moving
    time_out(game)
    take_three(game, bob)
    assert mails_to(alice) == 3


def test_an_api_client_that_read_the_game_is_present_for_a_while(
    alice: User, bob: User, settings: Any
) -> None:
    settings.API_PRESENCE_SECONDS = 0.5
    game = invited_game(alice, bob)
    take_three(game, alice)
    django_mail.outbox.clear()
    assert client_for(bob).get(f"/api/v1/games/{game.pk}/").status_code == 200

    take_three(game, bob)
    take_three(game, alice)
    assert mails_to(bob) == 0

    time.sleep(0.6)
    take_three(game, bob)
    take_three(game, alice)
    assert mails_to(bob) == 1


def test_a_game_started_by_its_creator_mails_them_nothing_for_its_first_turn(
    alice: User, bob: User
) -> None:
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                      created_by=alice, seed=21)  # fmt: skip
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), BotSeat("random")],
                      created_by=alice, seed=21)  # fmt: skip

    assert mails_to(alice) == 0
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                      created_by=bob, seed=21)  # fmt: skip
    assert mails_to(alice) == 1  # invited by bob: she is not looking at that one


def test_a_creator_whose_bot_moves_first_gets_nothing_for_their_first_turn(alice: User) -> None:
    game = lobby.game_create(variant="splendor", seats=[BotSeat("random"), UserSeat(alice)],
                             created_by=alice, seed=21)  # fmt: skip

    game.refresh_from_db()
    assert game.acting_seat == 1  # the bot has moved: the first turn that waits for her
    assert mails_to(alice) == 0
