"""Writes of the notifications app: presence in games, and the record behind every mail.

A mail is sent under a claimed ``MailRecord``: the row is unique per (user, game, version,
kind) or per (user, day) for digests, and one UPDATE claims it for ``MAIL_CLAIM_SECONDS``, so
of two deliveries of the same task only one sends. A sender that crashes holding a claim lets it
lapse, and the sweeper queues the mail again (at least once); if the server had already taken
the mail, it then goes twice, the one case where it can
(docs/decisions/0110-mail-survives-a-crash.md).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.vocabulary import Status
from notifications import presence
from notifications.models import MailRecord


def presence_record(*, user_id: int, game_id: int, seconds: float | None = None) -> None:
    """Note that ``user_id`` is present in game ``game_id`` for ``seconds`` (default
    ``PRESENCE_SECONDS``, an open page): at most one mark per third of that per process.

    Called by the game page, its poll every few seconds and every API request about a game, so
    it is throttled through the local cache; the mark is what the mail worker reads.
    """
    seconds = settings.PRESENCE_SECONDS if seconds is None else seconds
    key = f"presence:{user_id}:{game_id}:{seconds}"
    if cache.get(key):
        return
    presence.presence_mark(user_id=user_id, game_id=game_id, seconds=seconds)
    cache.set(key, True, seconds / 3)


def on_player_seen(
    *, user_id: int, game_id: int, seconds: float | None, throttled: bool, **_: object
) -> None:
    """Receives ``games.commands.presence.player_seen``: a throttled sighting (a page's poll, an
    API call) goes through :func:`presence_record`; the stream's spaced heartbeat is marked as
    it comes."""
    if throttled:
        presence_record(user_id=user_id, game_id=game_id, seconds=seconds)
    else:
        presence.presence_mark(
            user_id=user_id,
            game_id=game_id,
            seconds=settings.PRESENCE_SECONDS if seconds is None else seconds,
        )


@dataclass(frozen=True)
class MailClaim:
    """A claimed mail: the unique key of its record."""

    user_id: int
    kind: str
    game_id: int | None
    version: int
    day: date | None

    def records(self) -> QuerySet[MailRecord]:
        return MailRecord.objects.filter(
            user_id=self.user_id,
            kind=self.kind,
            game_id=self.game_id,
            version=self.version,
            day=self.day,
        )

    def __str__(self) -> str:
        about = f"day {self.day}" if self.day else f"game {self.game_id} v{self.version}"
        return f"{self.kind} mail to user {self.user_id} ({about})"


def mail_claim(
    *,
    user_id: int,
    kind: str,
    game_id: int | None = None,
    version: int = 0,
    day: date | None = None,
    now: datetime | None = None,
) -> MailClaim | None:
    """Claim the mail's record (made if new); None if it was sent, given up or is taken.

    Two queries: an insert that does nothing if the row exists (the unique constraint), and one
    UPDATE that only one of two racing senders can win.
    """
    now = now or timezone.now()
    claim = MailClaim(user_id=user_id, kind=kind, game_id=game_id, version=version, day=day)
    MailRecord.objects.bulk_create(
        [MailRecord(user_id=user_id, kind=kind, game_id=game_id, version=version, day=day)],
        ignore_conflicts=True,
    )
    claimed = (
        claim.records()
        .filter(sent_at__isnull=True, gave_up_at__isnull=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(
            claimed_until=now + timedelta(seconds=settings.MAIL_CLAIM_SECONDS),
            attempts=F("attempts") + 1,
        )
    )
    return claim if claimed else None


def mail_mark_sent(claim: MailClaim) -> None:
    claim.records().update(sent_at=timezone.now(), claimed_until=None)


def digest_claim_many(due: list[tuple[int, date]], *, now: datetime) -> list[MailClaim]:
    """Claim the digests of many readers at once: three statements for the lot.

    The claim is stamped with a time no other sender uses, so reading back the rows with that
    stamp tells which ones this sender won.
    """
    if not due:
        return []
    kind = MailRecord.Kind.DIGEST
    MailRecord.objects.bulk_create(
        [MailRecord(user_id=user_id, kind=kind, day=day) for user_id, day in due],
        ignore_conflicts=True,
    )
    stamp = now + timedelta(
        seconds=settings.MAIL_CLAIM_SECONDS, microseconds=secrets.randbelow(10**6)
    )
    which = Q(pk__in=[])
    for user_id, day in due:
        which |= Q(user_id=user_id, day=day)
    (
        MailRecord.objects.filter(which, kind=kind, sent_at__isnull=True, gave_up_at__isnull=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(claimed_until=stamp, attempts=F("attempts") + 1)
    )
    won = set(
        MailRecord.objects.filter(which, kind=kind, claimed_until=stamp).values_list(
            "user_id", "day"
        )
    )
    return [
        MailClaim(user_id=user_id, kind=kind, game_id=None, version=0, day=day)
        for user_id, day in due
        if (user_id, day) in won
    ]


def mail_mark_sent_many(claims: list[MailClaim]) -> None:
    if not claims:
        return
    which = Q(pk__in=[])
    for claim in claims:
        which |= Q(user_id=claim.user_id, kind=claim.kind, day=claim.day)
    MailRecord.objects.filter(which).update(sent_at=timezone.now(), claimed_until=None)


def mail_release(claim: MailClaim, *, give_up: bool) -> None:
    """After a failed try: free the claim for the next try, or give the mail up for good."""
    changes: dict[str, object] = {"claimed_until": None}
    if give_up:
        changes["gave_up_at"] = timezone.now()
    claim.records().update(**changes)


def mail_release_lapsed(*, now: datetime) -> list[tuple[int, int, str]]:
    """Free the turn mails and reminders whose sender died holding the claim, while their turn
    still waits: (game id, game version, kind) of each, for the sweeper to queue again.

    A released record is looked at once: if the mail is no longer due when its task runs (the
    player came back, changed the setting), the record stays unclaimed and no sweep takes it up
    again. A mail whose turn has passed is left alone: it would say nothing true any more.
    """
    lapsed = MailRecord.objects.filter(
        kind__in=[MailRecord.Kind.TURN, MailRecord.Kind.REMINDER],
        sent_at__isnull=True,
        gave_up_at__isnull=True,
        claimed_until__lt=now,
        game__status=Status.ACTIVE,
        game__turn_version=F("version"),
    )
    found = list(lapsed.values_list("pk", "game_id", "game__version", "kind"))
    MailRecord.objects.filter(
        pk__in=[pk for pk, *_ in found], sent_at__isnull=True, claimed_until__lt=now
    ).update(claimed_until=None)
    return [(game_id, version, kind) for _, game_id, version, kind in found]
