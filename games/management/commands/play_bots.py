"""Play bot-against-bot games through the real services: every move is a stored event.

Useful for demos, for analytics data and as load. In embedded mode (no REDIS_URL) the games are
played here, in-process, before the command prints them; with a broker, the workers play them
and ``--wait`` follows them until they finish.

    manage.py play_bots --games 3 --bots greedy random
    manage.py play_bots --variant duel --games 3 --bots search greedy
    REDIS_URL=redis://127.0.0.1:6379/0 manage.py play_bots --games 20 --wait 600
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.commands import lobby
from games.models import Game
from games.vocabulary import BotLevel, Status

PROGRESS_EVERY_SECONDS = 5.0


class Command(BaseCommand):
    help = "Create N bot-against-bot games and let the bots play them to the end."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1, help="how many games (default 1)")
        parser.add_argument(
            "--variant",
            default="splendor",
            choices=engine.VARIANTS,
            help="which game (default splendor; a duel is for exactly two bots)",
        )
        parser.add_argument(
            "--bots",
            nargs="+",
            default=["greedy", "random"],
            choices=BotLevel.values,
            help="one bot level per seat, as many as the game has seats (default: greedy random)",
        )
        parser.add_argument("--private", action="store_true", help="keep them out of the lobby")
        parser.add_argument(
            "--wait",
            type=float,
            default=0,
            metavar="SECONDS",
            help="with a broker, wait up to this long for the workers to finish the games",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        variant = options["variant"]
        seat_counts = engine.seat_counts(variant)
        if len(options["bots"]) not in seat_counts:
            fewest, most = min(seat_counts), max(seat_counts)
            counts = f"{fewest} to {most}" if fewest < most else str(fewest)
            raise CommandError(f"give {counts} bot levels for {variant}, one per seat")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        embedded = settings.CELERY_TASK_ALWAYS_EAGER
        started = time.monotonic()
        game_ids = []
        for _ in range(options["games"]):
            # Embedded, the whole game is played by the after-commit hook before this returns.
            game = lobby.game_create(
                variant=variant,
                seats=[lobby.BotSeat(level) for level in options["bots"]],
                created_by=None,
                is_public=not options["private"],
            )
            game_ids.append(game.pk)
        if not embedded:
            self._wait_for(game_ids, deadline=time.monotonic() + options["wait"])
        games = list(Game.objects.filter(pk__in=game_ids).order_by("pk"))
        for game in games:
            description = f"{game.status} at version {game.version}{_describe_result(game)}"
            self.stdout.write(f"game {game.pk}: {description}")
        finished = sum(game.status == Status.FINISHED for game in games)
        elapsed = time.monotonic() - started
        self.stdout.write(f"{finished}/{len(game_ids)} finished in {elapsed:.1f} s")
        if finished < len(game_ids):
            if embedded or options["wait"]:
                raise CommandError(f"{len(game_ids) - finished} game(s) did not finish")
            self.stdout.write("the workers play the rest; pass --wait SECONDS to follow them")

    def _wait_for(self, game_ids: list[int], *, deadline: float) -> None:
        next_report = time.monotonic() + PROGRESS_EVERY_SECONDS
        while time.monotonic() < deadline:
            unfinished = _unfinished(game_ids)
            if not unfinished:
                return
            if time.monotonic() >= next_report:
                self.stdout.write(f"waiting: {unfinished}/{len(game_ids)} still playing")
                next_report += PROGRESS_EVERY_SECONDS
            time.sleep(0.2)


def _unfinished(game_ids: list[int]) -> int:
    return Game.objects.filter(pk__in=game_ids, status=Status.ACTIVE).count()


def _describe_result(game: Game) -> str:
    if not game.result:
        return ""
    winners = ", ".join(f"seat {seat}" for seat in game.result.get("winners", []))
    points = "-".join(str(score) for score in game.result.get("points", []))
    return f", won by {winners or 'nobody'} ({points} points)"
