"""Training runs in the admin, read-only: a run is made by ``manage.py train_expert`` alone."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from training.models import GateGame, SelfPlayGame, TrainingRun


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TrainingRun)
class TrainingRunAdmin(ReadOnly, admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "seats",
        "status",
        "champion",
        "games_generated",
        "positions",
        "accepted",
        "worker_cpu_seconds",
        "created_at",
    )
    list_filter = ("variant", "status", "accepted")
    exclude = ("champion_network", "candidate_network")


@admin.register(SelfPlayGame)
class SelfPlayGameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("run", "index", "seed", "actions", "positions", "cpu_seconds")
    list_filter = ("run__variant",)
    exclude = ("data",)


@admin.register(GateGame)
class GateGameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("run", "index", "seed", "candidate_seat", "candidate_score", "cpu_seconds")
    list_filter = ("run__variant",)
