"""Training runs and the games they played: the record of where each network came from.

A run (``manage.py train_expert``) owns its self-play games, whose positions the network is fit
on, and its gate's games, whose scores decide whether the network is accepted. A game's row is
written once by its task: unique on (run, index), so a redelivered task stores nothing twice.
The networks travel in the run's row (``champion_network``, ``candidate_network``: a few tens
of kilobytes), so a worker on any machine plays them without a shared disk.
"""

from __future__ import annotations

from django.db import models


class RunStatus(models.TextChoices):
    SELF_PLAY = "self_play", "Self-play"
    FITTING = "fitting", "Fitting"
    GATING = "gating", "Gate match"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class TrainingRun(models.Model):
    variant = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(help_text="Every game's deal and every fit draw from it.")
    settings = models.JSONField(
        help_text="Games, iterations, fit settings, gate games and threshold, data used."
    )
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.SELF_PLAY)
    champion = models.CharField(
        max_length=200, help_text="The bot the run plays and challenges: search, or Expert."
    )
    champion_network = models.BinaryField(
        null=True, blank=True, help_text="The installed network when the run began, if any."
    )
    candidate_network = models.BinaryField(null=True, blank=True)
    candidate_path = models.CharField(max_length=500, blank=True)
    games_generated = models.PositiveIntegerField(default=0)
    positions = models.PositiveIntegerField(
        default=0, help_text="Positions the network was fit on (with earlier runs' if asked)."
    )
    fit_report = models.JSONField(null=True, blank=True)
    gate_result = models.JSONField(null=True, blank=True)
    accepted = models.BooleanField(null=True, blank=True)
    installed_path = models.CharField(max_length=500, blank=True)
    worker_cpu_seconds = models.FloatField(
        default=0.0, help_text="Self-play and gate games, added up from their rows."
    )
    fit_cpu_seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["variant", "accepted"])]

    def __str__(self) -> str:
        return f"training run {self.pk} of {self.variant} ({self.status})"


class SelfPlayGame(models.Model):
    run = models.ForeignKey(TrainingRun, on_delete=models.CASCADE, related_name="games")
    index = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    data = models.BinaryField(help_text="games.bots.learning.selfplay.PlayedGame.to_bytes")
    actions = models.PositiveIntegerField()
    positions = models.PositiveIntegerField()
    cpu_seconds = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="one_selfplay_game_per_index")
        ]

    def __str__(self) -> str:
        return f"self-play game {self.index} of run {self.run_id}"


class GateGame(models.Model):
    run = models.ForeignKey(TrainingRun, on_delete=models.CASCADE, related_name="gate_games")
    index = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    candidate_seat = models.PositiveSmallIntegerField()
    candidate_score = models.FloatField(help_text="The candidate's share of the win.")
    actions = models.PositiveIntegerField()
    cpu_seconds = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="one_gate_game_per_index")
        ]

    def __str__(self) -> str:
        return f"gate game {self.index} of run {self.run_id}"
