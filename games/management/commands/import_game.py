"""Import a finished game from a file in the notation, replaying it through the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.commands import history as history_services
from games.errors import ImportRejected, LimitReached
from games.notation import game_files
from games.notation.document import ImportRefused


class Command(BaseCommand):
    help = (
        "Import a game from FILE (JSON, as the site exports it). The game is replayed move by "
        "move; a file that does not replay is refused, naming the first bad step, and nothing "
        "is stored. The game is marked as imported, so statistics leave it out."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", help="record this username as the uploader")
        parser.add_argument("--private", action="store_true", help="do not list it publicly")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            with path.open("rb") as file:
                raw = file.read(game_files.MAX_FILE_BYTES + 1)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            document = game_files.read_game_file(raw)
        except ImportRefused as error:
            raise CommandError(f"{path}: {error}") from None
        uploader = None
        if options["user"]:
            uploader = get_user_model().objects.filter(username=options["user"]).first()
            if uploader is None:
                raise CommandError(f"there is no user {options['user']!r}")
        try:
            game = history_services.game_import(
                document=document,
                uploaded_by=uploader,
                is_public=not options["private"],
            )
        except (ImportRejected, LimitReached) as error:
            raise CommandError(f"{path}: {error.message}") from None
        self.stdout.write(f"imported game {game.pk} ({len(game.result['points'])} players)")
