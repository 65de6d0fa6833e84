"""Mail tasks, on their own queue (``MAIL_QUEUE``): turn mail, deadline reminders, digests.

Each takes ids, decides from the database whether a mail is due, and sends it under a claimed
``MailRecord`` (``notifications.services``), so a task delivered twice sends one mail. A mail
server that refuses the mail costs no move: the move was committed before the task was queued,
and the task tries again with exponential back-off, then gives up and logs it.

Mail is at least once: the mail tasks are acknowledged late and given back to the broker when
the process running them dies (``reject_on_worker_lost``), and ``resend_unsent_mail`` queues
again every mail whose sender died holding its claim
(docs/decisions/0110-mail-survives-a-crash.md).
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from datetime import datetime
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from kombu.exceptions import OperationalError as BrokerUnavailable

from games.commands.task_queue import enqueue
from games.models import Game, Seat
from games.vocabulary import Status
from notifications import mail, selectors, services
from notifications.models import MailRecord
from operations import metrics

logger = logging.getLogger(__name__)

MAIL_ERRORS = (smtplib.SMTPException, OSError)
"""What a mail server that is down, refuses or hangs raises (timeouts are OSErrors)."""


def queue_turn_notice(game_id: int, version: int, *, has_email: bool | None = None) -> None:
    """After-commit hook of the commands: queue a turn mail when a person's turn began.

    The writer runs it only when the game, as it committed it, waits for a person, and tells
    whether they have an address (``has_email``); only when it does not know is the database
    asked. The task decides again from the database whether the mail is due.
    """
    if has_email is None:
        has_email = Seat.objects.filter(
            game_id=game_id,
            game__status=Status.ACTIVE,
            game__version=version,
            index=F("game__acting_seat"),
            user__isnull=False,
            user__email__gt="",  # no address, no mail: not even a task
            is_away=False,
        ).exists()
    if not has_email:
        return
    try:
        enqueue(send_turn_notice, game_id, version)
    except BrokerUnavailable as error:
        logger.warning("broker unavailable, no turn mail for game %s: %s", game_id, error)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def send_turn_notice(self: Task, game_id: int, version: int) -> str:
    """Mail the player the game waits for at ``version``; one mail per turn, ever."""
    return _notify(self, game_id, version, MailRecord.Kind.TURN)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def send_reminder(self: Task, game_id: int, version: int) -> str:
    """Mail the reminder of a move with a quarter of its time left; once per turn."""
    return _notify(self, game_id, version, MailRecord.Kind.REMINDER)


@shared_task
def send_due_reminders(now: str | None = None) -> int:
    """Beat: queue the reminder of every turn with a quarter of its time left, not yet sent."""
    moment = _moment(now)
    reminded = MailRecord.objects.filter(
        game_id=OuterRef("pk"), kind=MailRecord.Kind.REMINDER, version=OuterRef("turn_version")
    )
    due = (
        Game.objects.filter(status=Status.ACTIVE, reminder_at__lte=moment, turn_deadline__gt=moment)
        .exclude(Exists(reminded))
        .values_list("pk", "version")
    )
    count = 0
    for game_id, version in due:
        enqueue(send_reminder, game_id, version)
        count += 1
    return count


RESENDERS: dict[str, Task] = {
    MailRecord.Kind.TURN: send_turn_notice,
    MailRecord.Kind.REMINDER: send_reminder,
}


@shared_task
def resend_unsent_mail(now: str | None = None) -> int:
    """Beat: queue again each turn mail and reminder claimed ``MAIL_CLAIM_SECONDS`` ago or more
    and never sent (its sender died mid-send), while its turn still waits; the claim decides
    which delivery sends. Digests need no sweep: the next digest run in the hour takes them."""
    moment = _moment(now)
    lapsed = services.mail_release_lapsed(now=moment)
    for game_id, version, kind in lapsed:
        logger.warning("re-queuing %s mail of game %s: its sender never finished", kind, game_id)
        enqueue(RESENDERS[kind], game_id, version)
    return len(lapsed)


def _notify(task: Task, game_id: int, version: int, kind: str) -> str:
    found = selectors.mail_recipient(game_id, version, kind)
    if found is None:
        return "not needed"
    game, user, seat = found
    context = selectors.turn_mail_context(game, user, seat)
    is_reminder = kind == MailRecord.Kind.REMINDER
    message = mail.build_mail(
        to=user.email,
        user_id=user.pk,
        subject=(mail.reminder_subject if is_reminder else mail.turn_subject)(context),
        template="turn",
        context={**context, "is_reminder": is_reminder},
    )
    claim = services.mail_claim(
        user_id=user.pk, kind=kind, game_id=game_id, version=game.turn_version
    )
    if claim is None:
        return "already sent"
    return _send_claimed(task, claim, message.send)


def _send_claimed(
    task: Task, claim: services.MailClaim, send: Callable[[], Any], *, mark: bool = True
) -> str:
    try:
        send()
    except MAIL_ERRORS as error:
        retries = task.request.retries or 0
        # Run in-process (no broker) there is no one to retry later: give up at once.
        give_up = task.request.called_directly or retries >= settings.MAIL_SEND_MAX_RETRIES
        services.mail_release(claim, give_up=give_up)
        if give_up:
            logger.error("gave up mailing %s after %s tries: %s", claim, retries + 1, error)
            metrics.MAILS.labels(outcome="failed").inc()
            return "gave up"
        metrics.MAILS.labels(outcome="deferred").inc()
        countdown = min(settings.MAIL_RETRY_BACKOFF_MAX_SECONDS, 5 * 2**retries)
        logger.warning("mailing %s failed (%s); trying again in %s s", claim, error, countdown)
        raise task.retry(exc=error, countdown=countdown, max_retries=None) from error
    if mark:
        services.mail_mark_sent(claim)
    metrics.MAILS.labels(outcome="sent").inc()
    return "sent"


# The daily digest ----------------------------------------------------------------------------


DIGEST_BATCH = 100
"""Readers claimed and marked sent together: a sender that dies mid-batch may, once its claims
lapse, send that batch's digests a second time (docs/decisions/0108-reminders-and-digest.md)."""


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def send_due_digests(self: Task, now: str | None = None) -> int:
    """Beat: the daily digest to everyone whose hour it is, over one connection to the server.

    A handful of queries for all readers, then three per batch of ``DIGEST_BATCH`` (claim) and
    one per batch to mark them sent. Readers with nothing waiting get nothing, and are looked at
    again at the next run within their hour.
    """
    moment = _moment(now)
    due = selectors.digest_due(moment)
    if not due:
        return 0
    user_ids = [user_id for user_id, _ in due]
    games = selectors.digest_games(user_ids)
    users = selectors.users_by_id(user_ids)
    waiting = [(user_id, day) for user_id, day in due if games.get(user_id) and user_id in users]
    sent = 0
    failures: list[BaseException] = []
    with get_connection() as connection:
        for start in range(0, len(waiting), DIGEST_BATCH):
            batch = waiting[start : start + DIGEST_BATCH]
            delivered: list[services.MailClaim] = []
            for claim in services.digest_claim_many(batch, now=moment):
                message = _digest_message(users[claim.user_id], games[claim.user_id])
                message.connection = connection
                try:
                    if _send_claimed(self, claim, message.send, mark=False) == "sent":
                        delivered.append(claim)
                except Exception as error:  # a retry: the others still get theirs first
                    failures.append(error)
            services.mail_mark_sent_many(delivered)
            sent += len(delivered)
    if failures:
        raise failures[0]
    return sent


def _digest_message(user: Any, waiting: list[dict[str, Any]]) -> EmailMultiAlternatives:
    zone = selectors.ZoneInfo(user.profile.time_zone)
    games = [{**game, "due": selectors.due_text(game["deadline"], zone)} for game in waiting]
    name = user.profile.display_name or user.get_username()
    return mail.build_mail(
        to=user.email,
        user_id=user.pk,
        subject=mail.digest_subject(games),
        template="digest",
        context={"name": name, "games": games},
    )


def _moment(now: str | None) -> datetime:
    """The time a periodic task acts at: now, or the one a test passes in."""
    if now is None:
        return timezone.now()
    moment = parse_datetime(now)
    if moment is None:
        raise ValueError(f"not a date and time: {now!r}")
    return moment
