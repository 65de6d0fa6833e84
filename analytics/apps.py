from __future__ import annotations

from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Analytics"

    def ready(self) -> None:
        from analytics import tasks
        from games.commands import after_commit

        # Told by the writer: only the commit that finishes a game has counting to queue.
        after_commit.register_after_commit(
            lambda committed: tasks.queue_count_if_finished(committed.game_id, committed.version),
            when=after_commit.is_finished,
        )
