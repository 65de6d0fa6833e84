from __future__ import annotations

from django.apps import AppConfig
from django.core import checks


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import tasks
        from games.commands import after_commit, deadline_tasks, game_news
        from games.variants.completeness import check_every_game_is_complete
        from games.web import live

        checks.register(check_every_game_is_complete)

        # Pages first: in the embedded mode the bot's turn runs inside its hook, and the
        # player's own move should not wait for it to reach the other pages.
        after_commit.register_after_commit(
            lambda committed: live.publish(committed.game_id, committed.version)
        )
        # News of a game from the apps above (an analysis's progress) takes the same stream.
        game_news.game_news.connect(live.publish_news, dispatch_uid="games.live.news")
        after_commit.register_after_commit(
            lambda committed: tasks.enqueue_bot_turn(
                committed.game_id, committed.version, with_player=committed.has_a_player
            ),
            when=after_commit.bot_moves_next,
        )
        after_commit.register_after_commit(
            lambda committed: deadline_tasks.queue_away_turn(committed.game_id, committed.version),
            when=after_commit.waits_for_a_seat_handed_to_the_bot,
        )
