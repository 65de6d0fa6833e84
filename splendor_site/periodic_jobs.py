"""Beat's periodic jobs without beat: all at once by command, or on their schedule in the server.

One schedule, ``CELERY_BEAT_SCHEDULE``: what beat runs with Redis is what the quick start's
server runs without it (``PERIODIC_JOBS_IN_PROCESS``, on when ``REDIS_URL`` is unset), and what
``manage.py run_periodic_jobs`` runs once. A job is its task, called in this process; in embedded
mode whatever it queues (a reminder, a bot's move) runs here too. Every job is safe to run twice
(ids, versions and mail records decide), and a lock file elects one process of the server
(uvicorn ``--workers``) to run them, so they do not all do the same work.
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import logging
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from celery import current_app
from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PeriodicJob:
    name: str
    task: str
    every_seconds: float

    def run(self, *, now: datetime | None = None) -> Any:
        """Run the job's task here, as a plain call (a failed mail is not tried again later);
        a task that acts at a moment acts at ``now`` when given, else at the clock's."""
        # Beat names a task by its Celery name, which need not be where it is defined now (the
        # deadline tasks kept theirs when their module moved): look it up as a worker does.
        current_app.loader.import_default_modules()  # every app's tasks module, as a worker
        task = current_app.tasks[self.task]
        if now is not None and "now" in inspect.signature(task.run).parameters:
            return task(now=now.isoformat())
        return task()


def periodic_jobs() -> list[PeriodicJob]:
    """Beat's schedule, as jobs this process can run."""
    return [
        PeriodicJob(name=name, task=entry["task"], every_seconds=float(entry["schedule"]))
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
    ]


def run_every_job_once() -> list[tuple[PeriodicJob, Any]]:
    """Each job once, in schedule order: (job, what its task returned)."""
    return [(job, job.run()) for job in periodic_jobs()]


def default_lock_path() -> Path:
    """One lock per database: the server's processes share it; another checkout does not."""
    database = settings.DATABASES["default"]
    where = f"{database.get('HOST')}:{database.get('PORT')}/{database['NAME']}"
    key = hashlib.sha256(where.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"splendor-periodic-jobs-{key}.lock"


class InProcessScheduler:
    """Runs ``jobs`` in a daemon thread, each every ``every_seconds`` from the first tick on,
    while this process holds the lock file; a process without it tries again every tick, so one
    takes over when the holder exits."""

    def __init__(
        self,
        jobs: list[PeriodicJob],
        *,
        lock_path: Path,
        tick_seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.jobs = jobs
        self.lock_path = lock_path
        self.tick_seconds = tick_seconds
        self.clock = clock
        self._lock_file: IO[bytes] | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="periodic-jobs", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)
        if self._lock_file is not None:
            self._lock_file.close()  # closing the file releases the lock
            self._lock_file = None

    @property
    def holds_lock(self) -> bool:
        return self._lock_file is not None

    def _take_lock(self) -> bool:
        if self._lock_file is not None:
            return True
        lock_file = self.lock_path.open("ab")
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock_file.close()
            return False
        self._lock_file = lock_file
        return True

    def _run(self) -> None:
        due_at = {job.name: 0.0 for job in self.jobs}
        while not self._stopping.is_set():
            if self._take_lock():
                for job in self.jobs:
                    if self._stopping.is_set() or self.clock() < due_at[job.name]:
                        continue
                    due_at[job.name] = self.clock() + job.every_seconds
                    self._run_job(job)
            self._stopping.wait(self.tick_seconds)

    def _run_job(self, job: PeriodicJob) -> None:
        try:
            job.run()
        except Exception:  # one failing job must not stop the others, nor the next runs
            logger.exception("periodic job %s failed", job.name)
        finally:
            # This thread's own connections; the server's requests have theirs.
            connections.close_all()


_scheduler: InProcessScheduler | None = None
_starting = threading.Lock()


def start_in_process_scheduler() -> InProcessScheduler | None:
    """Start the server process's scheduler, once, when ``PERIODIC_JOBS_IN_PROCESS`` is on
    (the quick start: no broker, so no beat); the ASGI and WSGI entry points call it."""
    global _scheduler
    if not settings.PERIODIC_JOBS_IN_PROCESS:
        return None
    with _starting:
        if _scheduler is None:
            _scheduler = InProcessScheduler(periodic_jobs(), lock_path=default_lock_path())
            _scheduler.start()
            logger.info("running the periodic jobs in this process (no broker, no beat)")
    return _scheduler
