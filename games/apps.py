from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import services, tasks

        services.register_after_commit(tasks.queue_bot_turn)
