from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import deadline_tasks, live, services, tasks

        # Pages first: in the embedded mode the bot's turn runs inside its hook, and the
        # player's own move should not wait for it to reach the other pages.
        services.register_after_commit(live.publish)
        services.register_after_commit(tasks.enqueue_bot_turn, only_when_a_bot_moves_next=True)
        services.register_after_commit(
            deadline_tasks.queue_away_turn, when=services.waits_for_a_seat_handed_to_the_bot
        )
