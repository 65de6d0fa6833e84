"""Turn deadlines with an injected clock: reminder, time-out, seat handed to the bot, reclaim.

The sweepers take the moment they act at (``now``), as beat would give them the clock's; the
events they write are stamped with the real time, so each new turn's clock starts "now".
"""

from __future__ import annotations

import re
import threading
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.db import connection
from django.utils import timezone

from accounts import services as account_services
from games.commands import deadlines as turn_deadlines
from games.commands import lobby, play
from games.commands.deadline_tasks import apply_turn_deadlines, greedy_chooser
from games.commands.integrity import read_model_differences
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent, Seat
from games.reads import game_view
from games.store import records
from notifications.tasks import send_due_reminders
from tests.notifications.conftest import client_for, visit_and_leave

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = 3600


def hour_game(alice: User, bob: User) -> Game:
    # bob invites alice, who moves first: she is not looking at the game when it starts
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=bob, seed=21, move_seconds=HOUR)  # fmt: skip
    return Game.objects.get(pk=game.pk)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def at(moment: datetime) -> str:
    return moment.isoformat()


def after_deadline(game: Game) -> str:
    game = fresh(game)
    assert game.turn_deadline is not None
    return at(game.turn_deadline + timedelta(seconds=1))


def move_myself(game: Game, user: User) -> None:
    """``user`` comes back to the game, takes three gems and leaves again."""
    visit_and_leave(user, game)
    game = fresh(game)
    legal = game_view.game_legal_actions_for_viewer(game, user)
    take = next(action for action in legal if action["type"] == "take_gems")
    play.game_take_action(game_id=game.pk, action=take, expected_version=game.version,
                          user=user)  # fmt: skip


def kinds_after(game: Game, seq: int) -> list[str]:
    return list(
        GameEvent.objects.filter(game=game, seq__gt=seq)
        .order_by("seq")
        .values_list("kind", flat=True)
    )


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def test_a_game_with_a_time_per_move_shows_when_the_move_is_due(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)

    assert game.turn_deadline is not None
    assert game.turn_deadline - game.started_at == timedelta(hours=1)
    assert game.reminder_at == game.turn_deadline - timedelta(minutes=15)
    assert "It is due" in django_mail.outbox[0].body
    account_services.profile_update(bob, time_zone="Asia/Tokyo")
    page = client_for(bob).get(f"/games/{game.pk}/").text
    assert "is due by" in page
    assert "JST" in page  # in bob's own time zone


def test_the_deadline_line_follows_the_turn_when_the_page_refreshes_its_regions(
    alice: User, bob: User
) -> None:
    game = hour_game(alice, bob)
    watching = client_for(bob)
    page = watching.get(f"/games/{game.pk}/").text
    assert "The move of alice is due by" in page
    shown = ",".join(
        f"{name}={value}"
        for name, value in re.findall(r'data-region="(\w+)" data-digest="(\w+)"', page)
    )

    move_myself(game, alice)
    regions = watching.get(
        f"/games/{game.pk}/regions/", HTTP_HX_REQUEST="true", HTTP_X_REGION_DIGESTS=shown
    ).text

    status = re.search(r'<section id="region-status".*?</section>', regions, re.S)
    assert status is not None
    assert 'hx-swap-oob="true"' in status.group()
    assert "Your turn" in status.group()
    assert "The move of bob is due by" in status.group()
    assert fresh(game).turn_deadline.isoformat() in status.group()  # type: ignore[union-attr]
    assert "The move of alice" not in regions


def test_a_reminder_goes_out_once_when_a_quarter_of_the_time_is_left(
    alice: User, bob: User
) -> None:
    game = hour_game(alice, bob)
    started = game.started_at
    django_mail.outbox.clear()

    assert send_due_reminders(now=at(started + timedelta(minutes=44))) == 0
    assert send_due_reminders(now=at(started + timedelta(minutes=46))) == 1
    assert send_due_reminders(now=at(started + timedelta(minutes=50))) == 0

    [reminder] = django_mail.outbox
    assert reminder.to == ["alice@example.com"]
    assert reminder.subject.startswith(f"Reminder: your move in game #{game.pk} is due")
    assert "the Greedy bot plays that turn for you" in reminder.body


def test_when_the_time_runs_out_the_greedy_bot_plays_that_one_turn(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)
    version = game.version

    assert apply_turn_deadlines(now=at(game.turn_deadline - timedelta(seconds=1))) == 0
    assert apply_turn_deadlines(now=after_deadline(game)) == 1

    game = fresh(game)
    assert kinds_after(game, version)[:2] == ["TurnTimedOut", "ActionTaken"]
    assert game.acting_seat == 1
    assert seat(game, 0).timeouts_in_row == 1
    assert not seat(game, 0).is_away
    history = client_for(bob).get(f"/games/{game.pk}/history/").text
    assert "alice ran out of time; the Greedy bot played the turn for them." in history
    assert "(played on time-out)" in history
    assert django_mail.outbox[-1].to == ["bob@example.com"]  # bob's turn mail, with his deadline
    assert read_model_differences(game) == []


def test_a_move_of_ones_own_ends_a_run_of_time_outs(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)
    apply_turn_deadlines(now=after_deadline(game))
    move_myself(game, bob)
    move_myself(game, alice)
    move_myself(game, bob)

    apply_turn_deadlines(now=after_deadline(game))

    game = fresh(game)
    assert seat(game, 0).timeouts_in_row == 1
    assert not seat(game, 0).is_away
    assert "SeatHandedToBot" not in kinds_after(game, 0)


def test_after_two_time_outs_in_a_row_the_bot_keeps_the_seat_until_it_is_taken_back(
    alice: User, bob: User, settings: Any
) -> None:
    settings.PRESENCE_SECONDS = 0.5  # how long alice's page counts after she closes it
    game = hour_game(alice, bob)
    apply_turn_deadlines(now=after_deadline(game))
    move_myself(game, bob)
    version = fresh(game).version

    apply_turn_deadlines(now=after_deadline(game))

    game = fresh(game)
    assert kinds_after(game, version)[-1] == "SeatHandedToBot"
    assert seat(game, 0).is_away
    assert game.acting_seat == 1  # the time-out played alice's turn; bob is to move
    django_mail.outbox.clear()

    move_myself(game, bob)  # the bot answers for alice at once, with no mail to her

    game = fresh(game)
    assert game.acting_seat == 1
    last_alice = GameEvent.objects.filter(game=game, seat=0, kind="ActionTaken").latest("seq")
    assert last_alice.payload.get("for_away_seat") is True
    assert all(mail.to != ["alice@example.com"] for mail in django_mail.outbox)

    page = client_for(alice).get(f"/games/{game.pk}/").text
    assert "Take my seat back" in page
    response = client_for(alice).post(f"/games/{game.pk}/reclaim/")
    assert response.status_code == 303

    game = fresh(game)
    assert kinds_after(game, game.version - 1) == ["SeatReclaimed"]
    assert not seat(game, 0).is_away
    time.sleep(0.6)  # alice closed the page and her presence lapsed: mail reaches her again
    move_myself(game, bob)
    game = fresh(game)
    assert game.acting_seat == 0  # alice plays her own turns again, against the clock
    assert game.turn_deadline is not None
    assert django_mail.outbox[-1].to == ["alice@example.com"]
    assert read_model_differences(game) == []


def test_taking_back_a_seat_that_is_not_handed_over_is_refused(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)

    response = client_for(alice).post(f"/games/{game.pk}/reclaim/", follow=True)

    assert "Your seat is already yours" in response.text
    assert fresh(game).version == game.version


@pytest.mark.postgres
def test_a_deadline_is_applied_once_when_two_sweepers_race(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)
    # The very moment the deadline falls: the next turn's deadline, an hour after the time-out
    # was applied, comes after it. A moment later than that (a second after the deadline) could
    # also pass the next turn's deadline when the first sweeper commits within that second, and
    # a sweeper that looked after that commit would rightly time out bob's turn as well.
    moment = at(fresh(game).turn_deadline)  # type: ignore[arg-type]
    start = threading.Barrier(2)
    applied: list[int] = []

    def sweep() -> None:
        try:
            start.wait(timeout=10)
            applied.append(apply_turn_deadlines(now=moment))
        finally:
            connection.close()

    sweepers = [threading.Thread(target=sweep) for _ in range(2)]
    for sweeper in sweepers:
        sweeper.start()
    for sweeper in sweepers:
        sweeper.join(timeout=60)

    assert sorted(applied) == [0, 1]
    assert GameEvent.objects.filter(game=game, kind="TurnTimedOut").count() == 1
    assert read_model_differences(fresh(game)) == []


def test_a_sweeper_that_comes_after_the_move_changes_nothing(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)
    late = after_deadline(game)
    move_myself(game, alice)  # alice moved in time, just before a slow sweeper got there

    applied = turn_deadlines.game_time_out_turn(
        game_id=game.pk,
        expected_version=game.version,
        now=datetime.fromisoformat(late),
        choose=greedy_chooser(game.pk, game.version),
    )

    assert applied is False
    assert not GameEvent.objects.filter(game=game, kind="TurnTimedOut").exists()


def test_time_is_measured_from_the_start_of_the_turn(alice: User, bob: User) -> None:
    game = hour_game(alice, bob)
    move_myself(game, alice)

    game = fresh(game)
    assert game.turn_version == game.version
    assert abs(game.turn_deadline - (timezone.now() + timedelta(hours=1))) < timedelta(minutes=1)


def test_the_trusted_replay_keeps_the_move_clock_and_time_outs_of_the_checked_one(
    alice: User, bob: User
) -> None:
    game = hour_game(alice, bob)
    apply_turn_deadlines(now=after_deadline(game))  # alice times out once
    move_myself(game, bob)
    move_myself(game, alice)  # her own move ends the run of time-outs
    move_myself(game, bob)
    apply_turn_deadlines(now=after_deadline(game))
    move_myself(game, bob)

    game = fresh(game)
    trusted = records.record_from_log(game)
    checked = records.record_from_log(game, checked=True)

    assert trusted == checked
    assert (trusted.turn_version, trusted.turn_started_at) == (
        checked.turn_version,
        checked.turn_started_at,
    )
    assert trusted.seats[0].timeouts_in_row == 1
    assert read_model_differences(game) == []
