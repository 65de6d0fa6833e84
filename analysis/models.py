"""A game's analysis: a projection beside the event log, never events (docs/decisions/0137).

One row per (game, analysis version, settings): asking again for the same analysis finds this
row. ``steps`` holds the judged moves, one dict per move (``analysis.services.step_row``).
Like the other projections it points at its game without a database constraint: games are never
deleted, and the event store's own guards must not meet a projection's foreign key first.

A pending analysis whose worker has said nothing (``progress_at``) for
``ANALYSIS_STALLED_AFTER_SECONDS`` is stalled: its worker died, or its message was lost. The next
request restarts it as a new ``attempt``; a worker only writes the attempt it was queued for
(``analysis.runner``), so one left behind cannot overwrite the new run (docs/decisions/0142).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class Analysis(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    version = models.PositiveSmallIntegerField(help_text="analysis.budget.ANALYSIS_VERSION")
    settings_key = models.CharField(max_length=200, help_text="The budget, as stable JSON.")
    budget = models.JSONField(help_text="analysis.budget.settings_for: iterations or samples.")
    status = models.CharField(
        max_length=10, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED
    )
    steps_done = models.PositiveIntegerField(default=0)
    steps_total = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(help_text="Every position's generator is seeded from it.")
    worker_seconds = models.FloatField(null=True, blank=True, help_text="CPU time of the run.")
    steps = models.JSONField(default=list, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    progress_at = models.DateTimeField(
        default=timezone.now,
        help_text="When it was last queued, or a worker last wrote its progress.",
    )
    attempt = models.PositiveIntegerField(
        default=0, help_text="Its runs so far, less one: a restart queues the next."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "version", "settings_key"], name="one_analysis_per_game_settings"
            ),
        ]
        indexes = [models.Index(fields=["requested_by", "requested_at"])]
        verbose_name_plural = "analyses"

    def __str__(self) -> str:
        return f"analysis {self.pk} of game {self.game_id} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status in (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)

    def is_stalled(self, now: datetime | None = None) -> bool:
        """Pending, with no word from a worker for ``ANALYSIS_STALLED_AFTER_SECONDS``."""
        return self.is_pending and self.progress_at < stalled_before(now)


def stalled_before(now: datetime | None = None) -> datetime:
    """A pending analysis last heard of before this moment is stalled."""
    return (now or timezone.now()) - timedelta(seconds=settings.ANALYSIS_STALLED_AFTER_SECONDS)
