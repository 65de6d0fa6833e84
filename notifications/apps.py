from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from games.commands import after_commit
        from notifications import tasks

        # Only a person's turn can be mailed, and only to an address: the writer tells both.
        after_commit.register_after_commit(
            tasks.queue_turn_notice, only_when_a_person_moves_next=True
        )
