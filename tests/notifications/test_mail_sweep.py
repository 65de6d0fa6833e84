"""Mail survives a sender that dies mid-send: the sweeper queues again what was claimed, not sent.

A sender that died holding a claim is played here by claiming a mail's record in the past and
never sending it; ``tests/integration/test_mail_worker.py`` kills a real worker mid-send.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.utils import timezone

from accounts import services as account_services
from games.models import Game
from notifications import services as mail_services
from notifications.models import MailRecord
from notifications.tasks import resend_unsent_mail, send_due_digests
from tests.notifications.test_digest import game_waiting_for, paris
from tests.notifications.test_turn_notices import take_three, two_player_game

pytestmark = pytest.mark.django_db(transaction=True)


def claimed_by_a_dead_sender(user: User, game: Game, *, at: datetime) -> None:
    """The turn mail of ``game`` to ``user`` as a sender leaves it that was killed mid-send."""
    MailRecord.objects.filter(game=game, user=user).delete()
    claim = mail_services.mail_claim(
        user_id=user.pk, kind=MailRecord.Kind.TURN, game_id=game.pk, version=game.turn_version,
        now=at,
    )  # fmt: skip
    assert claim is not None


def test_a_turn_mail_whose_sender_died_goes_out_at_the_next_sweep(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    claimed_by_a_dead_sender(alice, game, at=timezone.now() - timedelta(seconds=121))
    django_mail.outbox.clear()

    assert resend_unsent_mail() == 1

    [mail] = django_mail.outbox
    assert mail.to == ["alice@example.com"]
    assert MailRecord.objects.get(game=game, user=alice).sent_at is not None
    assert resend_unsent_mail() == 0
    assert len(django_mail.outbox) == 1


def test_a_mail_still_claimed_is_left_to_its_sender(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    claimed_by_a_dead_sender(alice, game, at=timezone.now() - timedelta(seconds=60))
    django_mail.outbox.clear()

    assert resend_unsent_mail() == 0
    assert django_mail.outbox == []


def test_the_claim_time_is_a_setting(alice: User, bob: User, settings: object) -> None:
    settings.MAIL_CLAIM_SECONDS = 30  # type: ignore[attr-defined]
    game = two_player_game(alice, bob)
    claimed_by_a_dead_sender(alice, game, at=timezone.now() - timedelta(seconds=60))
    django_mail.outbox.clear()

    assert resend_unsent_mail() == 1
    assert [mail.to for mail in django_mail.outbox] == [["alice@example.com"]]


def test_a_lost_mail_about_a_turn_already_played_is_not_sent(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    claimed_by_a_dead_sender(alice, game, at=timezone.now() - timedelta(seconds=121))
    take_three(game, alice)
    django_mail.outbox.clear()

    assert resend_unsent_mail() == 0
    assert django_mail.outbox == []


def test_a_lost_mail_no_longer_due_is_looked_at_once(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    claimed_by_a_dead_sender(alice, game, at=timezone.now() - timedelta(seconds=121))
    account_services.profile_update(alice, notify="none")
    django_mail.outbox.clear()

    assert resend_unsent_mail() == 1
    assert resend_unsent_mail() == 0
    assert django_mail.outbox == []


def test_a_digest_whose_sender_died_goes_out_at_the_next_run_in_the_hour(
    alice: User, bob: User
) -> None:
    account_services.profile_update(alice, notify="daily_digest", digest_hour=9,
                                    time_zone="Europe/Paris")  # fmt: skip
    game_waiting_for(alice, bob)
    first_run = datetime.fromisoformat(paris(9, 5))
    claimed = mail_services.digest_claim_many([(alice.pk, first_run.date())], now=first_run)
    assert len(claimed) == 1  # and the sender dies with it
    django_mail.outbox.clear()

    assert send_due_digests(paris(9, 6)) == 0  # the dead sender's claim still holds
    assert send_due_digests(paris(9, 15)) == 1

    [mail] = django_mail.outbox
    assert mail.to == ["alice@example.com"]
    assert send_due_digests(paris(9, 25)) == 0
