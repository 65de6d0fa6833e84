"""Reads of accounts: profiles (with their defaults) and a user's API tokens."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from accounts.models import ApiToken, Profile
from games.models import Game, GameEvent


@dataclass(frozen=True)
class GameFootprint:
    """What the game records hold of one account: why it can be anonymised but not deleted."""

    games: int
    events: int

    @property
    def is_empty(self) -> bool:
        return not (self.games or self.events)


def profile_for(user: AbstractBaseUser) -> Profile:
    """``user``'s profile; an unsaved one with the defaults if they never changed it."""
    profile = Profile.objects.filter(user=user).first()
    return profile if profile is not None else Profile(user=user)


def display_name_for(user: AbstractBaseUser) -> str:
    """The name other players see: the chosen display name, else the username."""
    chosen = Profile.objects.filter(user=user).values_list("display_name", flat=True).first()
    return chosen or user.get_username()


def token_list(user: AbstractBaseUser) -> QuerySet[ApiToken]:
    """``user``'s tokens, newest first, revoked ones included (they show when they were)."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def game_footprint(user: AbstractBaseUser) -> GameFootprint:
    """The games ``user`` created or sat in, and the events they caused.

    Deleting such a user would have to change those rows, and events are never changed.
    """
    games = Game.objects.filter(Q(created_by_id=user.pk) | Q(seats__user_id=user.pk)).distinct()
    return GameFootprint(
        games=games.count(),
        events=GameEvent.objects.filter(actor_id=user.pk).count(),
    )


def anonymous_username(user_id: int) -> str:
    """The neutral name an anonymised account keeps (usernames are unique, so with its id)."""
    return f"former-player-{user_id}"
