"""A game's analysis: a projection beside the event log, never events (docs/decisions/0137).

One row per (game, analysis version, settings): asking again for the same analysis finds this
row. ``steps`` holds the judged moves, one dict per move (``analysis.services.step_row``).
Like the other projections it points at its game without a database constraint: games are never
deleted, and the event store's own guards must not meet a projection's foreign key first.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

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
