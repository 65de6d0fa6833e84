"""A real SMTP server on loopback (aiosmtpd) for the mail tests, and players who read mail.

Mail goes out through Django's own SMTP backend to ``SmtpInbox``, which parses every message
it accepts; tests read the mails from there as a player's mail client would.
"""

from __future__ import annotations

import email
import email.policy
import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from notifications import presence
from tests.leaks import assert_no_hidden_card_in_mails

PASSWORD = "a-long-enough-passphrase"
LINK = re.compile(r"Play your move: (\S+)")


@dataclass
class Mail:
    to: list[str]
    message: EmailMessage
    arrived_at: float

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None
        return str(part.get_content())

    @property
    def html(self) -> str:
        part = self.message.get_body(preferencelist=("html",))
        assert part is not None
        return str(part.get_content())

    @property
    def game_link_path(self) -> str:
        """The path of the mail's link to the game (the site is the test client's)."""
        found = LINK.search(self.text)
        assert found, f"no game link in:\n{self.text}"
        return urlsplit(found.group(1)).path

    def headers(self) -> str:
        return "\n".join(f"{name}: {value}" for name, value in self.message.items())


class SmtpInbox:
    """What the loopback SMTP server accepted, in order of arrival."""

    def __init__(self) -> None:
        self.mails: list[Mail] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._arrived:
            self.mails.append(Mail(list(envelope.rcpt_tos), message, time.monotonic()))  # type: ignore[arg-type]
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Mail]:
        with self._arrived:
            return [mail for mail in self.mails if address in mail.to]

    def wait_for(self, count: int, *, timeout: float = 10) -> list[Mail]:
        """The first ``count`` mails, waiting up to ``timeout`` seconds for them."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self.mails) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"{count} mail(s) expected, {len(self.mails)} arrived")
                self._arrived.wait(left)
            return list(self.mails[:count])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def received_inboxes() -> list[SmtpInbox]:
    """Every SMTP inbox of the test, for the hidden-card scan at its end."""
    return []


@pytest.fixture
def smtp_server(received_inboxes: list[SmtpInbox]) -> Iterator[tuple[SmtpInbox, int]]:
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every command
    inbox = SmtpInbox()
    received_inboxes.append(inbox)
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@pytest.fixture
def smtp_inbox(smtp_server: tuple[SmtpInbox, int], settings: Any) -> SmtpInbox:
    """Mail goes through Django's SMTP backend to the loopback server."""
    inbox, port = smtp_server
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_TIMEOUT = 5
    return inbox


@pytest.fixture(autouse=True)
def mail_test_settings(settings: Any) -> Iterator[None]:
    # Tasks run in-process after commit, as in the quick start (no worker in these tests).
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SITE_URL = "http://testserver"
    # Digest and deadline tests seat one opponent in many games: the account caps are not
    # what they test (games.commands.limits has its own tests).
    settings.GAMES_MAX_ACTIVE_PER_ACCOUNT = 1000
    settings.GAMES_MAX_CREATED_PER_HOUR = 1000
    cache.clear()  # presence is throttled through the cache, and user ids repeat
    yield
    cache.clear()


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str, **extra: object) -> User:
        return get_user_model().objects.create_user(  # type: ignore[no-any-return]
            username=username, password=PASSWORD, email=f"{username}@example.com", **extra
        )

    return make


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def visit_and_leave(user: User, game: Any) -> None:
    """``user`` comes back to ``game`` (a presence mark begins) and is gone again at once:
    a mail sent before belongs to an absence that is over."""
    presence.presence_mark(user_id=user.pk, game_id=game.pk, seconds=0.001)
    time.sleep(0.01)


# Every mail of every test here is scanned for hidden cards ------------------------------------


@pytest.fixture(autouse=True)
def every_mail_is_scanned_for_hidden_cards(
    db: None, received_inboxes: list[SmtpInbox]
) -> Iterator[None]:
    from django.core import mail as django_mail

    yield
    mails: list[Any] = list(getattr(django_mail, "outbox", []))
    for inbox in received_inboxes:
        mails.extend(inbox.mails)
    assert_no_hidden_card_in_mails(mails)
