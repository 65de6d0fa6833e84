"""Reads for mail: who gets a mail now, and what it says.

Everything a mail shows of a game comes from ``games.reads.game_view``'s per-viewer reads (the
engine's redacted view, the redacted event history), the same ones the game page uses.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, F, Max, OuterRef, Prefetch, Q
from django.utils import timezone

from accounts.models import Profile
from games.models import Game, GameEvent, Seat
from games.reads import game_view
from games.variants import describe_event
from games.variants.table_common import seat_names
from games.vocabulary import EventKind, Status
from notifications import links, presence
from notifications.models import MailRecord
from notifications.position import position_for

LOBBY_KINDS = frozenset(
    {EventKind.GAME_CREATED, EventKind.SEAT_TAKEN, EventKind.SEAT_LEFT, EventKind.BOT_ADDED}
)
HAPPENED_WINDOW = 40
"""Events a turn mail reads back at most: a full round of a four-player game and then some."""

# Which mail each setting lets through. A reminder is about a deadline, so digest readers get
# it too; "none" means no mail at all.
ALLOWED = {
    MailRecord.Kind.TURN: {Profile.Notify.EVERY_TURN},
    MailRecord.Kind.REMINDER: {Profile.Notify.EVERY_TURN, Profile.Notify.DAILY_DIGEST},
}


def mail_recipient(game_id: int, version: int, kind: str) -> tuple[Game, Any, int] | None:
    """The player a turn mail or reminder for ``game_id`` at ``version`` goes to, if any.

    None when the game moved on, waits for a bot or a seat handed to the bot, the player has no
    address, does not want this mail, is present in the game (``notifications.presence``, or
    ``is_starting_their_own_game``), or, for a turn mail, has had this absence's one turn mail
    already (``has_had_its_turn_mail``).
    """
    game = Game.objects.filter(pk=game_id, version=version, status=Status.ACTIVE).first()
    if game is None or game.acting_seat is None:
        return None
    seat = (
        Seat.objects.select_related("user")
        .filter(game=game, index=game.acting_seat, user__isnull=False, is_away=False)
        .first()
    )
    if seat is None or not seat.user.email or not seat.user.is_active:
        return None
    notify = notify_setting(seat.user)
    if notify not in ALLOWED[MailRecord.Kind(kind)]:
        return None
    now = timezone.now()
    found = presence.presence_of(user_id=seat.user.pk, game_id=game.pk)
    if found.is_present(now):
        return None
    # A reminder comes late in a turn: only turn mail knows who just created the game, and
    # who had this absence's one mail already.
    if kind == MailRecord.Kind.TURN and (
        is_starting_their_own_game(game, seat.user, now)
        or has_had_its_turn_mail(game, seat.user, found)
    ):
        return None
    return game, seat.user, seat.index


def is_starting_their_own_game(game: Game, user: AbstractBaseUser, now: datetime) -> bool:
    """The turn is the first of a game ``user`` created and that started just now: they are
    about to see its page (quick play, a fork, a rematch), so it is no news to them. Against
    bots only, that holds for their first turn even when the bots moved first (a Duel draws
    who starts): the bots' moves come before the creator's first look at the page."""
    just_now = now - timedelta(seconds=settings.PRESENCE_SECONDS)
    if not (
        game.created_by_id == user.pk
        and game.started_at is not None
        and game.started_at >= just_now
    ):
        return False
    if game.turn_started_at == game.started_at:
        return True
    against_bots_only = (
        not Seat.objects.filter(game=game, user__isnull=False).exclude(user=user).exists()
    )
    return (
        against_bots_only
        and not GameEvent.objects.filter(
            game=game, actor=user, kind=EventKind.ACTION_TAKEN
        ).exists()
    )


def has_had_its_turn_mail(game: Game, user: AbstractBaseUser, found: presence.Presence) -> bool:
    """One turn mail per absence: one went out (or is on its way) since the player was last
    back in the game: present on its page or through the API, or acting in it.

    The record of this very turn does not count: a second delivery of the same mail is the
    claim's to refuse, and a failed send may be tried again.
    """
    acted_at = (
        GameEvent.objects.filter(game=game, actor=user)
        .order_by()
        .aggregate(last=Max("created_at"))["last"]
    )
    came_back = max((moment for moment in (found.returned_at, acted_at) if moment), default=None)
    mails = MailRecord.objects.filter(
        user=user, game=game, kind=MailRecord.Kind.TURN, gave_up_at__isnull=True
    ).exclude(version=game.turn_version)
    if came_back is not None:
        mails = mails.filter(created_at__gt=came_back)
    return mails.exists()


def notify_setting(user: AbstractBaseUser) -> str:
    chosen = Profile.objects.filter(user=user).values_list("notify", flat=True).first()
    return chosen or Profile.Notify.EVERY_TURN


def time_zone_of(user: AbstractBaseUser) -> ZoneInfo:
    name = Profile.objects.filter(user=user).values_list("time_zone", flat=True).first()
    return ZoneInfo(name or "UTC")


def due_text(deadline: datetime | None, zone: ZoneInfo) -> str:
    if deadline is None:
        return ""
    return deadline.astimezone(zone).strftime("%A %-d %B at %H:%M (%Z)")


def turn_mail_context(game: Game, user: AbstractBaseUser, seat: int) -> dict[str, Any]:
    """What a turn mail or reminder says: the game, what happened, the position, the link."""
    data = game_view.game_view_for_viewer(game, user)
    names = seat_names(data)
    last_own = (
        GameEvent.objects.filter(game=game, seat=seat, kind=EventKind.ACTION_TAKEN)
        .exclude(payload__on_time_out=True)
        .aggregate(last=Max("seq"))["last"]
        or 0
    )
    events = game_view.game_events_for_viewer(
        game, user, after_seq=max(last_own, game.version - HAPPENED_WINDOW)
    )
    happened = [
        describe_event(event, names, variant=game.variant)
        for event in events
        if event["kind"] not in LOBBY_KINDS
    ]
    zone = time_zone_of(user)
    return {
        "game_id": game.pk,
        "you": names[seat],
        "opponents": [name for index, name in enumerate(names) if index != seat],
        "happened": happened,
        "position": position_for(game.variant, data["state"], names, seat),
        "due": due_text(game.turn_deadline, zone),
        "link": links.game_link_url(user_id=user.pk, game_id=game.pk, version=game.version),
    }


# The daily digest ----------------------------------------------------------------------------


def digest_due(now: datetime) -> list[tuple[int, date]]:
    """(user id, local day) of everyone whose digest hour it is and who has had none today.

    One query for the time zones in use, one for the users: the local hour and day differ per
    zone, so the condition is an OR over the zones (a few hundred at most).
    """
    digest_readers = Profile.objects.filter(notify=Profile.Notify.DAILY_DIGEST)
    zones = digest_readers.order_by().values_list("time_zone", flat=True).distinct()
    condition = Q(pk__in=[])
    days: dict[str, date] = {}
    for name in zones:
        local = now.astimezone(ZoneInfo(name))
        days[name] = local.date()
        # A digest whose sender died holding its claim is due again once the claim lapses.
        already = MailRecord.objects.filter(
            user_id=OuterRef("user_id"), kind=MailRecord.Kind.DIGEST, day=local.date()
        ).exclude(sent_at__isnull=True, gave_up_at__isnull=True, claimed_until__lt=now)
        condition |= Q(time_zone=name, digest_hour=local.hour) & ~Q(Exists(already))
    due = digest_readers.filter(condition, user__is_active=True).exclude(user__email="")
    return [(user_id, days[zone]) for user_id, zone in due.values_list("user_id", "time_zone")]


def digest_games(user_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The games waiting for each of ``user_ids``, most urgent deadline first: two queries."""
    waiting = (
        Seat.objects.filter(
            user_id__in=user_ids,
            is_away=False,
            game__status=Status.ACTIVE,
            index=F("game__acting_seat"),
        )
        .select_related("game")
        # Not the snapshot (the whole private state): a digest needs none of the board.
        .only("user_id", "index", "game__id", "game__version", "game__turn_deadline")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.only("game_id", "index", "display_name"))
        )
        .order_by(F("game__turn_deadline").asc(nulls_last=True), "game_id")
    )
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat in waiting:
        game = seat.game
        others = [other.display_name for other in game.seats.all() if other.index != seat.index]
        games[seat.user_id].append(
            {
                "game_id": game.pk,
                "opponents": others,
                "deadline": game.turn_deadline,
                "link": links.game_link_url(
                    user_id=seat.user_id, game_id=game.pk, version=game.version
                ),
            }
        )
    return games


def users_by_id(user_ids: list[int]) -> dict[int, Any]:
    users = get_user_model().objects.filter(pk__in=user_ids).select_related("profile")
    return {user.pk: user for user in users}
