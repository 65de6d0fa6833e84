"""`manage.py run_periodic_jobs`: every job of beat's schedule, once, now, in this process.

For the quick start, to see a reminder, a time-out or a digest without waiting for the
schedule, and for an operator who wants a sweep now. The jobs are the tasks beat queues, so
running them again (or beside beat) changes nothing twice. ``--ahead MINUTES`` lets the jobs
that act at a moment (deadlines, reminders, digests) act as if the clock were that far ahead:
a way to try a reminder or a time-out on a game with an hour per move, never one for a site
with real players (their turns would time out early).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from splendor_site.periodic_jobs import periodic_jobs


class Command(BaseCommand):
    help = "Run every periodic job (sweepers, deadlines, reminders, digests) once, now."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--ahead",
            type=int,
            default=0,
            metavar="MINUTES",
            help="Act as if the clock were this many minutes ahead (for trying things out).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ahead = options["ahead"]
        if ahead < 0:
            raise CommandError("--ahead takes minutes from now on, not back in time")
        moment = timezone.now() + timedelta(minutes=ahead) if ahead else None
        for job in periodic_jobs():
            result = job.run(now=moment)
            self.stdout.write(f"{job.name}: {result}")
