"""Real Celery workers for the integration tests, in their own processes.

A worker reads the test database (the tests use ``transaction=True``, so it sees committed
rows) and a Redis database of its own (``WORKER_REDIS_DB``, flushed before and after), so it
never takes another process's messages. The test process publishes to that same Redis database:
``celery_broker`` points the project's Celery app there for the test.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
import redis
from celery import Celery
from django.conf import settings
from django.db import connection

from splendor_site.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
# Its own Redis database, so that the worker sees only this run's tasks; set TEST_WORKER_REDIS_DB
# to run several suites side by side on one Redis.
WORKER_REDIS_DB = int(os.environ.get("TEST_WORKER_REDIS_DB", "15"))
WORKER_READY_SECONDS = 30
WORKER_STOP_SECONDS = 20


def redis_url_with_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, ""))


def worker_database_url() -> str:
    """The URL of the database this test run uses, for a worker process to connect to."""
    db = connection.settings_dict
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{credentials}{host}{port}/{db['NAME']}"


def point_app_at_broker(app: Celery, url: str) -> None:
    """Publish to ``url`` from now on.

    The app caches its connection and producer pools; dropping them makes it build new ones
    for the new URL. kombu keeps the old pools in its registry, ready for a switch back.
    """
    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def worker_redis_url() -> str:
    return redis_url_with_db(os.environ["REDIS_URL"], WORKER_REDIS_DB)


@pytest.fixture
def celery_broker(worker_redis_url: str, settings: pytest.FixtureRequest) -> Iterator[str]:
    """The test's own Redis database, empty, as the broker this process publishes to."""
    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    server = redis.Redis.from_url(worker_redis_url)
    server.flushdb()
    configured = celery_app.conf.broker_url
    was_eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    point_app_at_broker(celery_app, worker_redis_url)
    try:
        yield worker_redis_url
    finally:
        point_app_at_broker(celery_app, configured)
        celery_app.conf.task_always_eager = was_eager
        server.flushdb()
        server.close()


class WorkerProcess:
    """One ``celery worker`` process (solo pool: one task at a time, in the main process),
    consuming every queue: bot turns with players, bot turns between bots only, the rest."""

    def __init__(self, name: str, log_path: Path, env: dict[str, str]) -> None:
        self.name = name
        self.log_path = log_path
        command = [
            sys.executable, "-m", "celery", "-A", "splendor_site", "worker",
            "-Q", ",".join(queue.name for queue in settings.CELERY_TASK_QUEUES),
            "--pool=solo", "--concurrency=1", "-l", "info", "-n", name,
            # Nothing to synchronise with: these only slow the start down.
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_until_ready(self) -> None:
        deadline = time.monotonic() + WORKER_READY_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"worker exited with {self.process.returncode}:\n{self.log()}")
            if celery_app.control.ping(destination=[self.name], timeout=0.5):
                return
        pytest.fail(f"worker did not answer a ping in {WORKER_READY_SECONDS} s:\n{self.log()}")

    def wait_for_log(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log())
            if found:
                return found
            time.sleep(0.05)
        pytest.fail(f"worker log never matched {pattern!r} in {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no acknowledgement, no cleanup."""
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Warm shutdown: finish the task at hand, then exit."""
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=WORKER_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()


StartWorker = Callable[..., WorkerProcess]


@pytest.fixture
def start_worker(
    transactional_db: None, celery_broker: str, tmp_path: Path
) -> Iterator[StartWorker]:
    """Start workers on the test database and broker; extra keyword arguments go to their
    environment (``BOT_SEARCH_SECONDS="3"``). Every worker is stopped before the database is
    flushed, so none holds a lock or a transaction the flush would wait for."""
    workers: list[WorkerProcess] = []

    def start(**env: str) -> WorkerProcess:
        name = f"integration-{uuid.uuid4().hex[:8]}@localhost"
        worker_env = {
            **os.environ,
            "DATABASE_URL": worker_database_url(),
            "REDIS_URL": celery_broker,
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        worker = WorkerProcess(name, tmp_path / f"worker-{len(workers)}.log", worker_env)
        workers.append(worker)
        worker.wait_until_ready()
        return worker

    yield start
    for worker in workers:
        worker.stop()
