from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from games import services
        from notifications import tasks

        # Only a person's turn can be mailed: the hook asks the database no more than that.
        services.register_after_commit(tasks.queue_turn_notice, when=services.waits_for_a_person)
