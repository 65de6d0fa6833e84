"""Turn mail through Redis and a real worker to a real SMTP server: the production path."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import game_view
from games.vocabulary import Status
from notifications.models import MailRecord
from notifications.tasks import resend_unsent_mail, send_turn_notice
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
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=bob, seed=8, move_seconds=86400)  # fmt: skip
    # bob invited alice, who moves first: her first turn is news to her

    [first] = inbox.wait_for(1, timeout=30)
    assert first.to == ["alice@example.com"]

    game = Game.objects.get(pk=game.pk)
    take = next(
        action
        for action in game_view.game_legal_actions_for_viewer(game, alice)
        if action["type"] == "take_gems"
    )
    play.game_take_action(game_id=game.pk, action=take, expected_version=game.version,
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
    lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
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

    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=bob, seed=8)  # fmt: skip

    worker.wait_for_log(r"trying again in 5 s")
    worker.wait_for_log(r"gave up mailing turn mail to user \d+ \(game \d+ v\d+\) after 2 tries")
    assert Game.objects.get(pk=game.pk).status == Status.ACTIVE
    assert MailRecord.objects.get(game=game).gave_up_at is not None


class StallingInbox(SmtpInbox):
    """An SMTP server that holds the first message's DATA without an answer until released,
    then refuses it: a sender killed meanwhile dies in the middle of its send."""

    def __init__(self) -> None:
        super().__init__()
        self.stalled = threading.Event()
        self.release = threading.Event()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if not self.stalled.is_set():
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
            return "451 Requested action aborted"
        return await super().handle_DATA(server, session, envelope)


def test_a_worker_killed_mid_send_loses_no_turn_mail_and_sends_none_twice(
    start_worker: StartWorker, smtp_port: int, settings: Any
) -> None:
    stalling = StallingInbox()
    controller = Controller(stalling, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        claim_seconds = 3
        settings.MAIL_CLAIM_SECONDS = claim_seconds
        env = {**worker_mail_env(smtp_port), "MAIL_CLAIM_SECONDS": str(claim_seconds)}
        doomed = start_worker(**env)
        alice, bob = player("alice"), player("bob")
        # Created by bob: alice, to move first, is away (a creator gets no mail for it).
        game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                                 created_by=bob, seed=8)  # fmt: skip
        assert stalling.stalled.wait(30), "the turn mail never reached the server"

        doomed.kill()
        stalling.release.set()
        record = MailRecord.objects.get(game=game, kind="turn")
        assert record.claimed_until is not None
        assert record.sent_at is None
        assert stalling.mails == []

        survivor = start_worker(**env)
        time.sleep(max(0.0, (record.claimed_until - timezone.now()).total_seconds()) + 0.2)
        assert resend_unsent_mail() == 1  # what beat runs every MAIL_SWEEP_INTERVAL_SECONDS

        [mail] = stalling.wait_for(1, timeout=30)
        assert mail.to == ["alice@example.com"]
        # Another sweep, and the killed worker's own message delivered again (as Redis does
        # after its visibility timeout): neither sends a second mail.
        assert resend_unsent_mail() == 0
        game = Game.objects.get(pk=game.pk)
        send_turn_notice.delay(game.pk, game.version)
        survivor.wait_for_log(r"send_turn_notice\[[^\]]+\] succeeded in [\d.]+s: 'already sent'")
        assert len(stalling.mails) == 1
        assert MailRecord.objects.get(pk=record.pk).sent_at is not None
    finally:
        stalling.release.set()
        controller.stop()
