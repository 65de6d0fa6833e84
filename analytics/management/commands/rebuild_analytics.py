"""``manage.py rebuild_analytics``: drop every statistic and rating, count again from events."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from analytics import projections


class Command(BaseCommand):
    help = "Drop the analytics tables and rebuild them from the event log of finished games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="Fold games in this many processes (the cores to spare; default 1).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["processes"] < 1:
            raise CommandError("--processes must be at least 1.")
        started, cpu = time.perf_counter(), time.process_time()
        count = projections.rebuild(processes=options["processes"])
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        vacuum_started = time.perf_counter()
        projections.vacuum_tables()
        self.stdout.write(
            f"counted {count} finished game(s) in {seconds:.2f} s "
            f"({cpu:.2f} CPU-s in this process), then vacuumed the tables in "
            f"{time.perf_counter() - vacuum_started:.2f} s"
        )
