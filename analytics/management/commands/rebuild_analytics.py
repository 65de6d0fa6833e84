"""``manage.py rebuild_analytics``: drop every statistic and rating, count again from events."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from analytics import projections


class Command(BaseCommand):
    help = "Drop the analytics tables and rebuild them from the event log of finished games."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        count = projections.rebuild()
        seconds = time.perf_counter() - started
        self.stdout.write(f"counted {count} finished game(s) in {seconds:.1f} s")
