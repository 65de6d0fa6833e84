"""Replay every game's events and report any game whose read models or snapshot differ."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.integrity import read_model_differences
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game and report games whose snapshot or read models differ (exit 1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = broken = 0
        for game in games.iterator():
            checked += 1
            differences = read_model_differences(game)
            if differences:
                broken += 1
                self.stdout.write(f"game {game.pk}:")
                for difference in differences:
                    self.stdout.write(f"  {difference}")
        self.stdout.write(f"{checked} game(s) replayed, {broken} with differences")
        if broken:
            raise CommandError(f"{broken} game(s) differ from their event log")
