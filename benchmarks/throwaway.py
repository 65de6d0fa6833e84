"""Throwaway services for the benchmarks that run real workers: a fresh PostgreSQL database, an
emptied Redis database, and Celery worker processes started and stopped around a measurement.

Call :func:`use_throwaway_services` before Django reads its settings: it rewrites
``DATABASE_URL`` and ``REDIS_URL`` in the environment, which the settings and the workers read.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def use_throwaway_services(database: str, redis_db: int | None = None) -> Callable[[bool], None]:
    """Point DATABASE_URL at a new, empty database named ``database`` on the PostgreSQL server
    of DATABASE_URL (default 127.0.0.1:5432, user postgres), and REDIS_URL at ``redis_db`` (or
    the configured one), emptied. Return the function that empties Redis again and drops the
    database, unless it is told to keep it."""
    import dj_database_url
    import psycopg
    import redis

    configured = os.environ.get("DATABASE_URL", "").strip()
    parsed = dj_database_url.parse(configured) if configured else {}
    if parsed and parsed.get("ENGINE") != "django.db.backends.postgresql":
        sys.exit("DATABASE_URL must point at PostgreSQL (or be unset for 127.0.0.1:5432)")
    server = {
        "host": parsed.get("HOST") or "127.0.0.1",
        "port": parsed.get("PORT") or 5432,
        "user": parsed.get("USER") or "postgres",
        "password": parsed.get("PASSWORD") or None,
    }

    def admin(sql: str) -> None:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
            conn.execute(sql)

    admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    admin(f"CREATE DATABASE {database}")
    password = f":{server['password']}" if server["password"] else ""
    os.environ["DATABASE_URL"] = (
        f"postgres://{server['user']}{password}@{server['host']}:{server['port']}/{database}"
    )
    # The benchmark's user owns its database and migrates it itself.
    os.environ.pop("DATABASE_OWNER_URL", None)
    url = urlsplit(os.environ.get("REDIS_URL", "").strip() or "redis://127.0.0.1:6379/0")
    db = redis_db if redis_db is not None else int(url.path.strip("/") or 0)
    os.environ["REDIS_URL"] = urlunsplit((url.scheme, url.netloc, f"/{db}", url.query, ""))
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    broker.flushdb()

    def remove(keep_database: bool = False) -> None:
        from django.db import connections

        connections.close_all()
        broker.flushdb()
        if not keep_database:
            admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")

    return remove


def start_worker(
    name: str,
    log: IO[bytes],
    *,
    queues: Sequence[str] = (),
    pool: str = "prefork",
    processes: int = 1,
    log_level: str = "info",
    ready_seconds: float = 60,
) -> subprocess.Popen[bytes]:
    """A Celery worker process for this project, returned once it answers a ping."""
    from splendor_site.celery import app

    command = [
        sys.executable, "-m", "celery", "-A", "splendor_site", "worker",
        f"--pool={pool}", f"--concurrency={processes}", "-l", log_level, "-n", name,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    if queues:
        command += ["-Q", ",".join(queues)]
    worker = subprocess.Popen(
        command, cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + ready_seconds
    while not app.control.ping(destination=[name], timeout=0.5):
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.kill()
            sys.exit(f"worker {name} did not start; its log is {log.name}")
    return worker


def stop_worker(worker: subprocess.Popen[bytes], grace_seconds: float = 30) -> None:
    """Stop a worker warmly (it finishes its task), or kill it after ``grace_seconds``."""
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
