from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import services, tasks

        services.register_after_commit(tasks.enqueue_bot_turn, only_when_a_bot_moves_next=True)
