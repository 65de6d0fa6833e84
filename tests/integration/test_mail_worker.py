"""Turn mail through Redis and a real worker to a real SMTP server: the production path."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from games import selectors, services
from games.models import Game
from games.services import UserSeat
from notifications.models import MailRecord
from tests.integration.conftest import StartWorker
from tests.leaks import assert_no_hidden_card_in_mails
from tests.notifications.conftest import SmtpInbox, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def player(username: str) -> AbstractBaseUser:
    return get_user_model().objects.create_user(
        username=username, password=None, email=f"{username}@example.com"
    )


@pytest.fixture
def smtp_port() -> int:
    return free_port()


@pytest.fixture
def inbox(smtp_port: int) -> Iterator[SmtpInbox]:
    received = SmtpInbox()
    controller = Controller(received, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    yield received
    controller.stop()


def worker_mail_env(port: int) -> dict[str, str]:
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "SITE_URL": "http://testserver",
    }


def test_a_move_brings_the_next_player_a_mail_through_the_worker(
    start_worker: StartWorker, smtp_port: int, inbox: SmtpInbox
) -> None:
    start_worker(**worker_mail_env(smtp_port))
    alice, bob = player("alice"), player("bob")
    game = services.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                                created_by=bob, seed=8, move_seconds=86400)  # fmt: skip
    # bob invited alice, who moves first: her first turn is news to her

    [first] = inbox.wait_for(1, timeout=30)
    assert first.to == ["alice@example.com"]

    game = Game.objects.get(pk=game.pk)
    take = next(
        action
        for action in selectors.game_legal_actions_for_viewer(game, alice)
        if action["type"] == "take_gems"
    )
    services.game_take_action(game_id=game.pk, action=take, expected_version=game.version,
                              user=alice)  # fmt: skip

    [_, second] = inbox.wait_for(2, timeout=30)
    assert second.to == ["bob@example.com"]
    assert "alice took " in second.text
    assert "/mail/game/" in second.text
    assert_no_hidden_card_in_mails(inbox.mails)


def test_a_mail_server_that_was_down_gets_the_mail_on_a_later_try(
    start_worker: StartWorker, smtp_port: int, settings: Any
) -> None:
    worker = start_worker(**worker_mail_env(smtp_port))  # nothing listens there yet
    alice, bob = player("alice"), player("bob")
    services.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                         created_by=bob, seed=8)  # fmt: skip
    worker.wait_for_log(r"trying again in 5 s")

    received = SmtpInbox()
    controller = Controller(received, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        [mail] = received.wait_for(1, timeout=30)
    finally:
        controller.stop()
    assert mail.to == ["alice@example.com"]


def test_a_mail_server_that_stays_down_is_given_up_after_the_bound_and_logged(
    start_worker: StartWorker, smtp_port: int
) -> None:
    worker = start_worker(**worker_mail_env(smtp_port), MAIL_SEND_MAX_RETRIES="1")
    alice, bob = player("alice"), player("bob")

    game = services.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                                created_by=bob, seed=8)  # fmt: skip

    worker.wait_for_log(r"trying again in 5 s")
    worker.wait_for_log(r"gave up mailing turn mail to user \d+ \(game \d+ v\d+\) after 2 tries")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert MailRecord.objects.get(game=game).gave_up_at is not None
