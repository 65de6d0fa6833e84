"""Write every finished public game as gzipped JSON Lines: the site's open database."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.reads.exports import bulk_export_games


class Command(BaseCommand):
    help = (
        "Write every finished public game, one JSON document per line in the notation of "
        "docs/notation.md, gzipped, to FILE (or standard output with -). Streams: memory "
        "stays flat whatever the number of games."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write, e.g. games.jsonl.gz; - for stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        target = options["file"]
        written = 0
        if target == "-":
            out = sys.stdout.buffer
            for piece in bulk_export_games():
                out.write(piece)
                written += len(piece)
            out.flush()
            return
        with open(target, "wb") as out:
            for piece in bulk_export_games():
                out.write(piece)
                written += len(piece)
        self.stderr.write(f"wrote {written} bytes to {target}")
