"""CPU instructions per API action: a figure of the server's own work that load does not move.

Throughput and CPU time swing with whatever else the machine does; instructions counted by
``valgrind --tool=callgrind`` do not. A child process plays ``--actions`` actions through Django's
test client (the whole middleware stack and the API views, no HTTP server) on a PostgreSQL
database of its own, as ``api_load.py``'s clients do: it reads the legal actions of the seat to
act, then posts one with ``If-Match``, buying where it can; a finished game is followed by a new
one. The child runs twice under callgrind, once playing no action (start-up, migrations already
done, sign-ups, the first game) and once playing them all; the difference over the actions is
the figure. The game seeds are random, so two runs differ by a few tenths of a percent.

``--tree DIR`` measures another checkout (e.g. ``git worktree add /tmp/before <commit>``) with
this project's virtual environment, so that two versions are compared on one machine:

    .venv/bin/python benchmarks/api_instructions.py [--actions 600] [--tree DIR]

Needs valgrind and a PostgreSQL server (``--server``, default postgres@127.0.0.1:5432); the
database ``api_instructions_bench`` is made for the run and dropped after it. A run of 600
actions takes a few minutes: callgrind runs Python about fifty times slower.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "api_instructions_bench"
SERVER = "postgres://postgres@127.0.0.1:5432"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument(
        "--server", default=SERVER, help="a PostgreSQL server and a role that creates databases"
    )
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the child's own mode
    arguments = parser.parse_args()
    if arguments.play is not None:
        play(arguments.play)
        return
    tree = arguments.tree.resolve()
    server = arguments.server.rstrip("/")
    environment = {
        **os.environ,
        "DATABASE_URL": f"{server}/{DATABASE}",
        "PYTHONPATH": str(tree),
        "DJANGO_SETTINGS_MODULE": "splendor_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": "api-instructions-benchmark",
        "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "WARNING",
    }
    for name in ("DATABASE_OWNER_URL", "REDIS_URL"):
        environment.pop(name, None)
    admin = [sys.executable, "-c", ADMIN_SQL, server]
    subprocess.run([*admin, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"], check=True)
    subprocess.run([*admin, f"CREATE DATABASE {DATABASE}"], check=True)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=tree,
            env=environment,
            check=True,
            capture_output=True,
        )
        empty = count_instructions(tree, environment, 0)
        full = count_instructions(tree, environment, arguments.actions)
    finally:
        subprocess.run([*admin, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"], check=True)
    per_action = (full - empty) / arguments.actions
    print(f"tree {tree}")
    print(f"instructions, no action played: {empty:,}")
    print(f"instructions, {arguments.actions} actions played: {full:,}")
    print(f"instructions per action (legal actions read, then the action): {per_action:,.0f}")


ADMIN_SQL = """
import sys, psycopg
with psycopg.connect(sys.argv[1] + "/postgres", autocommit=True) as connection:
    connection.execute(sys.argv[2])
"""


def count_instructions(tree: Path, environment: dict[str, str], actions: int) -> int:
    """The instructions one child spends playing ``actions`` actions, start-up included."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(Path(__file__).resolve()),
            "--play",
            str(actions),
        ],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"the child failed:\n{done.stderr[-3000:]}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def play(actions: int) -> None:
    """The child: play ``actions`` actions through the API, two accounts taking turns."""
    # The measured tree first: this script's own folder holds modules named like the apps.
    sys.path.insert(0, os.getcwd())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.services import token_create

    # Each child has accounts of its own: the run with no action has made its two already.
    users = [get_user_model().objects.create_user(f"play{actions}-{n}") for n in range(2)]
    tokens = [token_create(user, "benchmark")[1] for user in users]
    client = Client()

    def call(method: str, path: str, token: str, body: Any = None, **headers: str) -> Any:
        extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        extra.update({f"HTTP_{name.upper()}": value for name, value in headers.items()})
        if method == "GET":
            response = client.get(path, **extra)
        else:
            content = json.dumps(body)
            response = client.post(path, content, content_type="application/json", **extra)
        assert response.status_code in (200, 201), (path, response.status_code, response.content)
        return response.json()

    def new_game() -> int:
        seats = {"seats": [{"type": "user"}, {"type": "open"}]}
        game = call("POST", "/api/v1/games/", tokens[0], seats)
        call("POST", f"/api/v1/games/{game['id']}/join/", tokens[1], {})
        return int(game["id"])

    rng = random.Random(7)
    game_id, seat, played = new_game(), 0, 0
    while played < actions:
        url = f"/api/v1/games/{game_id}/"
        legal = call("GET", url + "legal-actions/", tokens[seat])
        if not legal["actions"]:
            if legal["acting_seat"] is None:
                game_id, seat = new_game(), 0
            else:
                seat = legal["acting_seat"]
            continue
        choices, version = legal["actions"], legal["version"]
        while choices and played < actions:
            purchases = [choice for choice in choices if choice["type"] == "buy_card"]
            action = rng.choice(purchases or choices)
            answer = call("POST", url + "actions/", tokens[seat], action, If_Match=f'"{version}"')
            played += 1
            choices, version = answer.get("actions", []), answer["version"]
            if answer.get("acting_seat") is not None:
                seat = answer["acting_seat"]


if __name__ == "__main__":
    main()
