"""A server process's memory over many API actions: resident set size every 2,500 actions.

Runs the API in this process through Django's WSGI handler (``django.test.Client``: the
stack a gunicorn worker runs, without its HTTP parsing), with ``DEBUG`` off as in production,
against a PostgreSQL database of its own, ``<name>_memory_bench`` after the database of
``DATABASE_URL`` (created, migrated, dropped at the end). Two users with tokens play game after
game: the seat to act reads its legal actions, submits one, and goes on with the actions the
answer lists. Prints the resident set size before the first action and after every 2,500.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/splendor \\
        .venv/bin/python benchmarks/worker_memory.py [--actions 10000]

Target: under 100 MB after 10,000 actions.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"


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
        DATABASE_URL=f"{SERVER}/{name}", DEBUG="false", SECRET_KEY="benchmark-only-secret-key",
        ALLOWED_HOSTS="testserver", LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="splendor_site.settings",
    )  # fmt: skip
    os.environ.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT,
                   check=True)  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connections
    from django.test import Client

    from accounts.services import token_create

    try:
        tokens = [
            token_create(User.objects.create_user(f"memory{index}"), "benchmark")[1]
            for index in range(2)
        ]
        clients = [Client(HTTP_AUTHORIZATION=f"Bearer {token}") for token in tokens]
        rng = random.Random(0)
        print(f"worker memory over {args.actions} API actions (pid {os.getpid()})")
        print(f"{'actions':>8} {'RSS MB':>8} {'seconds':>8}")
        print(f"{0:>8} {rss_mb():>8.1f} {0:>8.1f}")
        started = time.monotonic()
        done, game_url, seat = 0, "", 0
        while done < args.actions:
            if not game_url:
                created = clients[0].post(
                    "/api/v1/games/",
                    {"seats": [{"type": "user"}, {"type": "open"}]},
                    content_type="application/json",
                )
                game_url = created["Location"]
                clients[1].post(game_url + "join/", {}, content_type="application/json")
                seat = 0
            legal = clients[seat].get(game_url + "legal-actions/").json()
            if legal["acting_seat"] is None:
                game_url = ""
                continue
            actions, version = legal["actions"], legal["version"]
            while actions and done < args.actions:
                answer = clients[seat].post(
                    game_url + "actions/", rng.choice(actions),
                    content_type="application/json", headers={"If-Match": f'"{version}"'},
                ).json()  # fmt: skip
                done += 1
                if done % 2500 == 0:
                    print(f"{done:>8} {rss_mb():>8.1f} {time.monotonic() - started:>8.1f}")
                actions, version = answer["actions"], answer["version"]
                if answer["acting_seat"] is not None:
                    seat = answer["acting_seat"]
    finally:
        connections.close_all()
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
