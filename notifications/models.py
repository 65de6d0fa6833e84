"""What was mailed to whom, and who is present in a game.

``MailRecord`` is the stored decision behind "never two mails for the same turn": one row per
(user, game, version, kind), or per (user, day) for the daily digest, unique in the database.
Only ``notifications.services`` writes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class MailRecord(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        REMINDER = "reminder", "Deadline reminder"
        DIGEST = "digest", "Daily digest"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    version = models.PositiveIntegerField(
        default=0, help_text="The version at which the turn began (turn mail and reminders)."
    )
    day = models.DateField(null=True, blank=True, help_text="The digest's day, in the user's zone.")
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_until = models.DateTimeField(
        null=True, blank=True, help_text="A sender is at work on this mail until then."
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    gave_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "version", "kind"],
                condition=models.Q(game__isnull=False),
                name="one_mail_per_user_game_version_kind",
            ),
            models.UniqueConstraint(
                fields=["user", "day"],
                condition=models.Q(kind="digest"),
                name="one_digest_per_user_per_day",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} mail to {self.user_id} (game {self.game_id}, version {self.version})"


class GamePresence(models.Model):
    """A player's presence in one game, where it is kept without Redis (``notifications.presence``).

    ``returned_at`` is when they last came back after being away: a turn mail sent after it was
    this absence's one mail.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    present_until = models.DateTimeField(null=True, blank=True, help_text="Present until then.")
    returned_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player last came back after being away."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_presence_per_user_game"),
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} on game {self.game_id} since {self.returned_at}"
