from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from games.commands import after_commit, presence
        from notifications import services, tasks

        # Turn mail is held back while its player is at the game: the pages, the stream and
        # the API report each sighting, and this app keeps them.
        presence.player_seen.connect(services.on_player_seen, dispatch_uid="notifications.presence")

        # Only a person's turn can be mailed, and only to an address: the writer tells both.
        after_commit.register_after_commit(
            lambda committed: tasks.queue_turn_notice(
                committed.game_id, committed.version, has_email=committed.mover_has_email
            ),
            when=after_commit.waits_for_a_person,
        )
