"""Per-account limits, so that one account cannot fill the server with games (and bot turns).

Three caps, each a setting: games waiting or in progress that an account plays in or created
(``GAMES_MAX_ACTIVE_PER_ACCOUNT``), games between bots only that it created and that are in
progress (``GAMES_MAX_BOT_ONLY_PER_ACCOUNT``), and games it created in the last hour
(``GAMES_MAX_CREATED_PER_HOUR``, imports included). The commands check them inside their
transaction, after locking the account's row, so that a burst of parallel requests cannot slip
past a count.
Games made by the system (``created_by`` None: ``play_bots``) are not counted against anyone.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.selectors import display_name_for
from games.errors import LimitReached
from games.models import Game, Seat
from games.vocabulary import Status

RUNNING = (Status.WAITING, Status.ACTIVE)


def lock_account(user: AbstractBaseUser) -> None:
    """Serialise one account's lobby requests (the caller holds a transaction)."""
    get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)


def check_can_create(user: AbstractBaseUser, *, bot_only: bool) -> None:
    """Refuse a new game (``bot_only``: every seat a bot) past any of the account's caps."""
    check_can_add_a_game(user)
    check_can_play_another(user, locked=True)
    if bot_only:
        check_can_run_another_bot_game(user, locked=True)


def check_can_add_a_game(user: AbstractBaseUser) -> None:
    """Refuse one more game past the hourly cap: a new game, or an import (which is finished,
    so it takes no seat and runs no bot, but is listed and stored like any other)."""
    lock_account(user)
    created_lately = Game.objects.filter(
        created_by=user, created_at__gte=timezone.now() - timedelta(hours=1)
    ).count()
    most = settings.GAMES_MAX_CREATED_PER_HOUR
    if created_lately >= most:
        raise LimitReached(
            f"You created {created_lately} games in the last hour, the most an account may: "
            "try again later.",
            limit=most,
        )


def check_can_play_another(user: AbstractBaseUser, *, locked: bool = False) -> None:
    """Refuse a seat or a game past the cap on games waiting or in progress."""
    if not locked:
        lock_account(user)
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))
    running = Game.objects.filter(Q(created_by=user) | Q(seated), status__in=RUNNING).count()
    most = settings.GAMES_MAX_ACTIVE_PER_ACCOUNT
    if running >= most:
        raise LimitReached(
            f"You have {running} games waiting or in progress, the most an account may: "
            "finish, leave or resign one first.",
            limit=most,
        )


def check_can_run_another_bot_game(user: AbstractBaseUser, *, locked: bool = False) -> None:
    """Refuse a game between bots only past the cap on those still running."""
    if not locked:
        lock_account(user)
    # Such a game starts as its last seat is filled, so only games in progress count.
    has_a_player = Exists(Seat.objects.filter(game=OuterRef("pk"), user__isnull=False))
    running = (
        Game.objects.filter(created_by=user, status=Status.ACTIVE).exclude(has_a_player).count()
    )
    most = settings.GAMES_MAX_BOT_ONLY_PER_ACCOUNT
    if running >= most:
        raise LimitReached(
            f"You already run {running} games between bots only, the most an account may: "
            "wait for one to end first.",
            limit=most,
        )


def check_can_play_another_with_deadlines(user: AbstractBaseUser) -> None:
    """Refuse a seat in a game with a time per move past ``MAX_DEADLINE_GAMES_PER_USER``.

    Games without deadlines do not count: the cap is about the moves one owes.
    """
    lock_account(user)
    running = Seat.objects.filter(
        user=user, game__status__in=RUNNING, game__move_seconds__isnull=False
    ).count()
    most = settings.MAX_DEADLINE_GAMES_PER_USER
    if running >= most:
        raise LimitReached(
            f"{display_name_for(user)} already has {running} games with a time per move under "
            "way, the most one player may: finish one first.",
            limit=most,
        )
