"""Reads of accounts: profiles (with their defaults) and a user's API tokens."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from accounts.models import ApiToken, Profile


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
