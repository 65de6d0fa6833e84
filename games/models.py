"""Games as append-only event logs, plus the read models kept beside them.

``GameEvent`` rows are the truth: never updated, never deleted (the model refuses, and on
PostgreSQL a trigger does too). ``Game`` and ``Seat`` are read models that the services keep in
the same transaction as each append and that ``rebuild_read_models`` can rebuild from events.
Only the commands (``games.commands``, through its one writer) write any of them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games import engine
from games.vocabulary import BotLevel, EventKind, Status


class Game(models.Model):
    variant = models.CharField(
        max_length=20, choices=[(name, name.title()) for name in engine.VARIANTS]
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING.value)
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField()
    is_public = models.BooleanField(
        default=True, help_text="Public games are listed in the lobby and open to spectators."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.PositiveIntegerField(
        default=0, help_text="The seq of the game's latest event: clients send it back to act."
    )
    snapshot = models.JSONField(
        null=True, blank=True, editable=False, help_text="Private engine state at snapshot_version."
    )
    snapshot_version = models.PositiveIntegerField(default=0, editable=False)
    commitment = models.CharField(
        max_length=64,
        blank=True,
        help_text="SHA-256 of the setup (seed and deck order), published when the game starts.",
    )
    acting_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat the game waits for, while it runs."
    )
    result = models.JSONField(null=True, blank=True, help_text="Winners and scores, once over.")
    move_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Time per move; none means the game has no deadlines."
    )
    turn_version = models.PositiveIntegerField(
        default=0, help_text="The version at which the acting seat's turn began."
    )
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the acting player's move is due, if ever."
    )
    reminder_at = models.DateTimeField(
        null=True, blank=True, help_text="When a quarter of the move's time is left."
    )
    origin = models.JSONField(
        null=True,
        blank=True,
        help_text=(
            "Where a game not played from a fresh deal came from: "
            '{"kind": "import"} or {"kind": "fork", "game": id, "step": n}. '
            "Null for games played here from the start: the only ones statistics count."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-updated_at"]),
            # The deadline sweeper's two questions: whose time ran out, who needs a reminder.
            models.Index(
                fields=["turn_deadline"],
                name="game_turn_deadline",
                condition=models.Q(turn_deadline__isnull=False),
            ),
            models.Index(
                fields=["reminder_at"],
                name="game_reminder_at",
                condition=models.Q(reminder_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk} ({self.get_status_display()})"

    @property
    def is_imported(self) -> bool:
        return bool(self.origin) and self.origin.get("kind") == "import"

    @property
    def is_forked(self) -> bool:
        return bool(self.origin) and self.origin.get("kind") == "fork"

    @property
    def is_running(self) -> bool:
        """Hidden information stays hidden while this is true."""
        return self.status in (Status.WAITING, Status.ACTIVE)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    display_name = models.CharField(max_length=150, blank=True)
    is_away = models.BooleanField(
        default=False, help_text="Handed to the greedy bot after two time-outs in a row."
    )
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)

    class Meta:
        # By the column, not the relation: "game" would follow Game's own ordering with a JOIN.
        ordering = ["game_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique_per_game"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user_per_game",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=True) | models.Q(bot_level=""),
                name="seat_is_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of game {self.game_id}: {self.display_name or 'open'}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


class EventsAreImmutable(Exception):
    """Raised on any attempt to change or remove a recorded event."""


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk writes would bypass the model's refusal, so the queryset refuses them too."""

    def update(self, **kwargs: Any) -> int:
        raise EventsAreImmutable("game events cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise EventsAreImmutable("game events cannot be deleted")


class GameEvent(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(help_text="1, 2, 3… within the game, without gaps.")
    kind = models.CharField(max_length=20, choices=EventKind.choices)
    payload = models.JSONField(default=dict)
    schema_version = models.PositiveSmallIntegerField(default=1)
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat that caused the event, if any."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The user who caused the event (none for bots and the system).",
    )
    # Set by the writer before the event is folded, so the fold and the row agree on the time.
    created_at = models.DateTimeField(default=timezone.now)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique_per_game"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise EventsAreImmutable("game events cannot be updated")
        # An INSERT and nothing else: given the id of a recorded event, Django would otherwise
        # try an UPDATE first and silently rewrite it.
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise EventsAreImmutable("game events cannot be deleted")


class IdempotencyRecord(models.Model):
    """The first result of an action request sent with an idempotency key.

    A retry with the same key and body gets this result back; the same key with another body
    is refused. Keys are scoped to the game and the user who sent them.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    request_fingerprint = models.CharField(max_length=64)
    result = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return f"idempotency key {self.key!r} on game {self.game_id}"
