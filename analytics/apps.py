from __future__ import annotations

from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Analytics"

    def ready(self) -> None:
        from analytics import tasks
        from games import services

        services.register_after_commit(tasks.queue_count_if_finished)
