"""The daily digest: once a day at the player's hour in their zone, most urgent game first."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail

from accounts import services as account_services
from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game
from games.vocabulary import Status
from notifications.tasks import send_due_digests

pytestmark = pytest.mark.django_db(transaction=True)

PARIS = ZoneInfo("Europe/Paris")


def digest_reader(user: User, *, hour: int = 9, zone: str = "Europe/Paris") -> User:
    account_services.profile_update(user, notify="daily_digest", digest_hour=hour, time_zone=zone)
    return user


def game_waiting_for(user: User, opponent: User, *, move_seconds: int | None = None) -> Game:
    """A game in which ``user`` (seat 0) is to move."""
    return lobby.game_create(variant="splendor", seats=[UserSeat(user), UserSeat(opponent)],
                             created_by=user, move_seconds=move_seconds)  # fmt: skip


def paris(hour: int, minute: int = 5, day: int = 10) -> str:
    return datetime(2026, 11, day, hour, minute, tzinfo=PARIS).isoformat()


def test_the_digest_lists_the_waiting_games_most_urgent_first(
    alice: User, bob: User, carol: User
) -> None:
    digest_reader(alice)
    relaxed = game_waiting_for(alice, bob)
    urgent = game_waiting_for(alice, carol, move_seconds=3600)
    daily = game_waiting_for(alice, carol, move_seconds=24 * 3600)

    assert send_due_digests(now=paris(9)) == 1

    [digest] = django_mail.outbox
    assert digest.to == ["alice@example.com"]
    assert digest.subject == "3 games waiting for your move"
    order = [digest.body.index(f"Game #{game.pk} ") for game in (urgent, daily, relaxed)]
    assert order == sorted(order)
    assert "due " in digest.body
    assert "List-Unsubscribe" in digest.extra_headers


def test_no_turn_mail_goes_to_a_digest_reader(alice: User, bob: User) -> None:
    digest_reader(alice)

    game_waiting_for(alice, bob)

    assert django_mail.outbox == []


def test_the_digest_comes_at_the_hour_of_the_readers_zone_once_a_day(
    alice: User, bob: User
) -> None:
    digest_reader(alice, hour=9, zone="America/New_York")
    game_waiting_for(alice, bob)
    new_york = ZoneInfo("America/New_York")

    def at(hour: int, day: int = 10) -> str:
        return datetime(2026, 11, day, hour, 20, tzinfo=new_york).isoformat()

    assert send_due_digests(now=at(8)) == 0
    assert send_due_digests(now=paris(9)) == 0  # 9 in Paris is 3 in New York
    assert send_due_digests(now=at(9)) == 1
    assert send_due_digests(now=at(9)) == 0  # once a day
    assert send_due_digests(now=at(9, day=11)) == 1  # and again the next day
    assert len(django_mail.outbox) == 2


def test_nothing_is_sent_when_nothing_waits(alice: User, bob: User) -> None:
    digest_reader(alice)
    game_waiting_for(bob, alice)  # bob is to move, not alice
    django_mail.outbox.clear()  # bob's turn mail

    assert send_due_digests(now=paris(9)) == 0
    assert django_mail.outbox == []


def test_the_digest_costs_a_bounded_number_of_queries_per_reader(
    make_user: Callable[..., User],
    django_assert_max_num_queries: Any,
) -> None:
    opponent = make_user("opponent")
    readers = [digest_reader(make_user(f"reader{number}")) for number in range(8)]
    for reader in readers:
        for _ in range(3):
            game_waiting_for(reader, opponent, move_seconds=3600)
    django_mail.outbox.clear()

    # Shared by all: zones, readers, their games and seats, users; then per batch of readers:
    # claim (insert in its own BEGIN/COMMIT, update, read back) and mark sent.
    with django_assert_max_num_queries(12):
        assert send_due_digests(now=paris(9)) == len(readers)
    assert all("3 games waiting" in mail.subject for mail in django_mail.outbox)


def test_a_digest_never_shows_a_game_whose_turn_passed_to_someone_else(
    alice: User, bob: User
) -> None:
    digest_reader(alice)
    game = game_waiting_for(alice, bob)
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED)  # over since

    assert send_due_digests(now=paris(9)) == 0


def test_the_digest_hour_is_checked_in_the_readers_zone_after_midnight(
    alice: User, bob: User
) -> None:
    digest_reader(alice, hour=0, zone="Asia/Tokyo")
    game_waiting_for(alice, bob)
    tokyo_midnight = datetime(2026, 11, 10, 0, 30, tzinfo=ZoneInfo("Asia/Tokyo"))

    assert send_due_digests(now=(tokyo_midnight - timedelta(hours=1)).isoformat()) == 0
    assert send_due_digests(now=tokyo_midnight.isoformat()) == 1
