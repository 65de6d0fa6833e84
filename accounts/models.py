"""A player's profile and personal API tokens.

Only ``accounts.services`` writes these rows. A token is stored as the SHA-256 of its raw
value: the raw token is shown once, when it is created, and cannot be recovered afterwards.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models

DISPLAY_NAME_MAX_LENGTH = 50
DEFAULT_DIGEST_HOUR = 8
TOKEN_NAME_MAX_LENGTH = 100


class Profile(models.Model):
    """What a player chooses about themselves; a user without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        blank=True,
        help_text="The name other players see; empty means the username.",
    )

    class Notify(models.TextChoices):
        EVERY_TURN = "every_turn", "Every turn"
        DAILY_DIGEST = "daily_digest", "A daily digest"
        NONE = "none", "Never"

    notify = models.CharField(
        max_length=12,
        choices=Notify.choices,
        default=Notify.EVERY_TURN,
        help_text="When to email this player about games waiting for their move.",
    )
    digest_hour = models.PositiveSmallIntegerField(
        default=DEFAULT_DIGEST_HOUR,
        validators=[MaxValueValidator(23)],
        help_text="The hour (0–23, in time_zone) the daily digest goes out.",
    )
    time_zone = models.CharField(
        max_length=64, default="UTC", help_text="An IANA time zone name, e.g. Europe/Paris."
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


class ApiToken(models.Model):
    """A personal token for the REST API, sent as ``Authorization: Bearer <token>``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(
        max_length=TOKEN_NAME_MAX_LENGTH, help_text="What the token is for, e.g. “my bot”."
    )
    token_hash = models.CharField(
        max_length=64, unique=True, editable=False, help_text="SHA-256 of the raw token, in hex."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"API token {self.name!r} of {self.user}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
