from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import deadline_tasks, services, tasks

        services.register_after_commit(tasks.queue_bot_turn)
        services.register_after_commit(deadline_tasks.queue_away_turn)
