"""Rebuild every game's rows and snapshot from its event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.commands.integrity import rebuild_read_models
from games.models import Game
from games.records.changes import ImpossibleEvent


class Command(BaseCommand):
    help = "Rewrite Game and Seat rows and snapshots from the events (the source of truth)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = rebuilt = left = 0
        for game in games.iterator():
            checked += 1
            try:
                changed = rebuild_read_models(game)
            except ImpossibleEvent as error:
                # Nothing replays past it: the rows stay as they are
                # (docs/decisions/0123-fold-refuses-impossible-events.md).
                left += 1
                self.stdout.write(f"game {game.pk}: left as it is, impossible event at {error}")
                continue
            if changed:
                rebuilt += 1
                self.stdout.write(f"game {game.pk}: rebuilt")
        summary = f"{checked} game(s) checked, {rebuilt} rebuilt"
        if left:
            summary += f", {left} left with an impossible event"
        self.stdout.write(summary)
