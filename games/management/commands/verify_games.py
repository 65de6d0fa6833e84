"""Replay every game's events and report any game whose read models or snapshot differ, or
whose log holds an event no game can contain."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.commands.integrity import holds_an_impossible_event, read_model_differences
from games.models import Game
from games.vocabulary import Status


class Command(BaseCommand):
    help = (
        "Replay every game and report games whose snapshot or read models differ, or whose log "
        "holds an impossible event (exit 1). Such a game once aborted is still listed, but no "
        "longer fails the check (docs/decisions/0123-fold-refuses-impossible-events.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = broken = set_aside = 0
        for game in games.iterator():
            checked += 1
            differences = read_model_differences(game)
            if not differences:
                continue
            if game.status == Status.ABORTED and holds_an_impossible_event(differences):
                set_aside += 1
                self.stdout.write(f"game {game.pk} (aborted, kept as recorded):")
            else:
                broken += 1
                self.stdout.write(f"game {game.pk}:")
            for difference in differences:
                self.stdout.write(f"  {difference}")
        summary = f"{checked} game(s) replayed, {broken} with differences"
        if set_aside:
            summary += f", {set_aside} aborted with an impossible event"
        self.stdout.write(summary)
        if broken:
            raise CommandError(f"{broken} game(s) differ from their event log")
