"""A server process's memory over many API actions: resident set size every 2,500 actions.

Runs the API in this process through the project's WSGI application (the stack a gunicorn
worker runs, without its HTTP parsing: each request is a WSGI environ handed to
``splendor_site.wsgi.application``), with ``DEBUG`` off as in production,
against a PostgreSQL database of its own, ``<name>_memory_bench`` after the database of
``DATABASE_URL`` (created, migrated, dropped at the end). Two users with tokens play game after
game: the seat to act reads its legal actions, submits one, and goes on with the actions the
answer lists. Prints the resident set size before the first action and after every 2,500.

Not ``django.test.Client``: it connects signal receivers on every request, and their weakref
finalizers pile up (about 1.7 MB per 1,000 actions) in the client, not in anything a worker runs.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/splendor \\
        .venv/bin/python benchmarks/worker_memory.py [--actions 10000]

Target: under 100 MB after 10,000 actions.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"
OPTIONAL_PACKAGES = ("requests", "pygments", "markdown")
"""Dev-only packages that DRF's compat module imports whenever they are installed (about 5 MB
for requests): the dev venv's worker carries them, a production worker does not."""


def rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    args = parser.parse_args()
    import psycopg

    configured = os.environ.get("DATABASE_URL", "")
    base = configured.rstrip("/").rsplit("/", 1)[-1] if configured.startswith("postgres") else ""
    name = f"{base or 'splendor'}_memory_bench"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    os.environ.update(
        DATABASE_URL=f"{SERVER}/{name}",
        DEBUG="false",
        SECRET_KEY="benchmark-only-secret-key",
        ALLOWED_HOSTS="testserver",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="splendor_site.settings",
        # Two accounts play every game here: lift their per-account caps and action throttle,
        # which a worker serving many players never meets for one of them.
        GAMES_MAX_CREATED_PER_HOUR="1000000",
        GAMES_MAX_ACTIVE_PER_ACCOUNT="1000000",
        API_ACTION_THROTTLE_RATE="1000000/min",
    )
    os.environ.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, check=True
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connections

    from accounts.services import token_create
    from splendor_site.wsgi import application

    try:
        tokens = [
            token_create(User.objects.create_user(f"memory{index}"), "benchmark")[1]
            for index in range(2)
        ]
        clients = [WsgiClient(application, token) for token in tokens]
        rng = random.Random(0)
        print(f"worker memory over {args.actions} API actions (pid {os.getpid()})")
        print(f"{'actions':>8} {'RSS MB':>8} {'seconds':>8}")
        print(f"{0:>8} {rss_mb():>8.1f} {0:>8.1f}")
        started = time.monotonic()
        done, game_url, seat = 0, "", 0
        while done < args.actions:
            if not game_url:
                created = clients[0].post(
                    "/api/v1/games/", {"seats": [{"type": "user"}, {"type": "open"}]}
                )
                game_url = "/api/v1/games/{}/".format(created["id"])
                clients[1].post(game_url + "join/", {})
                seat = 0
            legal = clients[seat].get(game_url + "legal-actions/")
            if legal["acting_seat"] is None:
                game_url = ""
                continue
            actions, version = legal["actions"], legal["version"]
            while actions and done < args.actions:
                answer = clients[seat].post(
                    game_url + "actions/", rng.choice(actions), if_match=f'"{version}"'
                )
                done += 1
                if done % 2500 == 0:
                    print(f"{done:>8} {rss_mb():>8.1f} {time.monotonic() - started:>8.1f}")
                actions, version = answer["actions"], answer["version"]
                if answer["acting_seat"] is not None:
                    seat = answer["acting_seat"]
        optional = [name for name in OPTIONAL_PACKAGES if name in sys.modules]
        print(f"optional packages loaded (none in a production install): {optional or 'none'}")
    finally:
        connections.close_all()
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class WsgiClient:
    """Requests as gunicorn hands them to the application: a WSGI environ, the body read, the
    response closed (which ends the request, as a server does)."""

    def __init__(self, application: Any, token: str) -> None:
        self.application = application
        self.authorization = f"Bearer {token}"

    def get(self, path: str) -> Any:
        return self.request("GET", path, b"")

    def post(self, path: str, data: Any, *, if_match: str | None = None) -> Any:
        return self.request("POST", path, json.dumps(data).encode(), if_match)

    def request(self, method: str, path: str, body: bytes, if_match: str | None = None) -> Any:
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "testserver",
            "HTTP_AUTHORIZATION": self.authorization,
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if if_match is not None:
            environ["HTTP_IF_MATCH"] = if_match
        statuses: list[str] = []
        result = self.application(environ, lambda status, headers: statuses.append(status))
        try:
            content = b"".join(result)
        finally:
            result.close()
        if not statuses[0].startswith("2"):
            raise RuntimeError(f"{method} {path}: {statuses[0]} {content[:300]!r}")
        return json.loads(content)


if __name__ == "__main__":
    main()
