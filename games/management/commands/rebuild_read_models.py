"""Rebuild every game's rows and snapshot from its event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.integrity import rebuild_read_models
from games.models import Game


class Command(BaseCommand):
    help = "Rewrite Game and Seat rows and snapshots from the events (the source of truth)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = rebuilt = 0
        for game in games.iterator():
            checked += 1
            if rebuild_read_models(game):
                rebuilt += 1
                self.stdout.write(f"game {game.pk}: rebuilt")
        self.stdout.write(f"{checked} game(s) checked, {rebuilt} rebuilt")
