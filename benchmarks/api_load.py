"""The REST API under load: many clients, each playing its own game through HTTP.

Starts gunicorn (``splendor_site.wsgi``, 2 sync workers by default) on a loopback port against a
PostgreSQL database of its own, ``<name>_api_bench`` after the database of ``DATABASE_URL``,
which it creates (dropped first if it exists) and migrates. Each client is a thread with two
users and their tokens: it creates a game with one token, joins it with the other, and plays
both seats as two real clients would: the seat whose turn comes reads its legal actions
(``GET …/legal-actions/``) and submits one (``POST …/actions/`` with ``If-Match``); while the
answer lists further actions for it (returns, a noble), it submits those straight away. A
finished game is followed by a new one. Only the action requests are timed. For each number of
clients it prints the accepted actions per second and the p50/p99 latency of an action request,
and the CPU time the gunicorn workers spent per accepted action (all requests), a figure that
depends far less on other work on the machine; at the end, each worker's resident memory and
the actions served.

First, before the load, it counts the database round trips of one client's actions from
PostgreSQL's own log: ``log_statement = 'all'`` is set for the benchmark database only, a
one-worker server plays ``--count-actions`` actions, and the statements the log shows for the
database are counted per request (BEGIN and COMMIT included). Everything stays on 127.0.0.1
and stops by itself; the database is dropped at the end unless ``--keep``.

    .venv/bin/python benchmarks/api_load.py [--clients 8,32,64] [--seconds 20] [--workers 2]
        [--threads 1] [--port 8765] [--count-actions 200] [--keep]

Target: at least 300 accepted actions per second with p99 under 100 ms at 32 clients, at most
7 round trips per action, a worker under 100 MB after 10,000 actions.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVER = "127.0.0.1"
DATABASE_SERVER = "postgres://postgres@127.0.0.1:5432"
DATABASE_NAME = (
    os.environ.get("DATABASE_URL", "").rstrip("/").rsplit("/", 1)[-1].split("?")[0]
    if os.environ.get("DATABASE_URL", "").startswith("postgres")
    else "splendor"
) + "_api_bench"
"""Named after the configured database, so people sharing a server do not drop each other's."""
POSTGRES_LOG = Path("/var/log/postgresql/postgresql-15-main.log")
MAX_ACTIONS_PER_CLIENT = 20_000


@dataclass
class Tally:
    """What one client saw during one run."""

    action_latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    games_finished: int = 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="8,32,64", help="comma-separated client counts")
    parser.add_argument("--seconds", type=float, default=20.0, help="timed run per client count")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per gunicorn worker (1: sync workers)"
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--count-actions", type=int, default=200, help="actions whose round trips are counted"
    )
    parser.add_argument("--postgres-log", type=Path, default=POSTGRES_LOG)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    levels = [int(count) for count in args.clients.split(",")]

    env = server_environment()
    prepare_database(env)
    tokens = create_players(env, 2 * max(levels))
    if args.count_actions:
        count_round_trips(env, args.port, tokens[:2], args.count_actions, args.postgres_log)
    server = Gunicorn(env, args.port, args.workers, args.threads)
    served = 0
    with server:
        print(
            f"{' '.join(server.command[1:])}, PostgreSQL database {DATABASE_NAME}, "
            f"{os.cpu_count()} CPUs; {args.seconds:g} s per run\n"
        )
        print(
            "clients  accepted/s  p50 ms  p99 ms  actions  games  "
            "server CPU ms/action  load avg  other answers"
        )
        for clients in levels:
            cpu_before = server.cpu_seconds()
            tallies = run(args.port, tokens, clients, args.seconds)
            report(clients, tallies, args.seconds, server.cpu_seconds() - cpu_before)
            served += sum(tally.statuses[200] for tally in tallies)
        rss = ", ".join(f"{megabytes:.1f} MB" for megabytes in server.worker_rss_mb())
        print(f"\nworkers' resident memory after {served} accepted actions: {rss}")
    if not args.keep:
        drop_database()


def server_environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env.update(
        DATABASE_URL=f"{DATABASE_SERVER}/{DATABASE_NAME}",
        DEBUG="false",
        SECRET_KEY="benchmark-only-secret-key",
        ALLOWED_HOSTS=SERVER,
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="splendor_site.settings",
    )
    return env


def prepare_database(env: dict[str, str]) -> None:
    import psycopg

    drop_database()
    with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {DATABASE_NAME}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def drop_database() -> None:
    import psycopg

    with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")


CREATE_PLAYERS = """
import json, sys
import django
django.setup()
from django.contrib.auth.models import User
from accounts.services import token_create
tokens = []
for index in range(int(sys.argv[1])):
    user = User.objects.create_user(f"bench{index}", password=None)
    tokens.append(token_create(user, "benchmark")[1])
print(json.dumps(tokens))
"""


def create_players(env: dict[str, str], count: int) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", CREATE_PLAYERS, str(count)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    tokens: list[str] = json.loads(done.stdout)
    return tokens


class Gunicorn:
    """Runs gunicorn for the duration of a ``with`` block and stops it (only it) afterwards."""

    def __init__(self, env: dict[str, str], port: int, workers: int, threads: int) -> None:
        self.command = [
            str(Path(sys.executable).parent / "gunicorn"),
            "splendor_site.wsgi",
            "-w",
            str(workers),
            "-b",
            f"{SERVER}:{port}",
            *(["--threads", str(threads)] if threads > 1 else []),
            "--log-level",
            "warning",
        ]
        self.env, self.port = env, port

    def __enter__(self) -> Gunicorn:
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _body = request(self.port, "GET", "/api/v1/games/?limit=1", None)
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.process.terminate()
        raise RuntimeError("gunicorn did not answer within 30 seconds")

    def cpu_seconds(self) -> float:
        """CPU time used so far by the gunicorn workers (both requests of every action).

        Unlike latency, this hardly depends on what else the machine is doing.
        """
        ticks = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:  # a worker: its parent is the master
                ticks += int(fields[11]) + int(fields[12])  # utime + stime
        return ticks / os.sysconf("SC_CLK_TCK")

    def worker_rss_mb(self) -> list[float]:
        """Each worker's resident set size, in MB."""
        sizes = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) != self.process.pid:
                    continue
                status = (stat.parent / "status").read_text()
            except OSError:
                continue
            kilobytes = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
            sizes.append(int(kilobytes.split()[1]) / 1024)
        return sorted(sizes)

    def __exit__(self, *exc: object) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def request(
    port: int,
    method: str,
    path: str,
    token: str | None,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One request on a fresh connection (gunicorn's sync workers close each one)."""
    connection = http.client.HTTPConnection(SERVER, port, timeout=30)
    sent_headers = {"Accept": "application/json", **(headers or {})}
    if token is not None:
        sent_headers["Authorization"] = f"Bearer {token}"
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        sent_headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=payload, headers=sent_headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    return response.status, json.loads(data) if data else None


def run(port: int, tokens: list[str], clients: int, seconds: float) -> list[Tally]:
    tallies = [Tally() for _ in range(clients)]
    games = [new_game(port, tokens[2 * index], tokens[2 * index + 1]) for index in range(clients)]
    start = threading.Barrier(clients + 1)
    stop_at: list[float] = []
    threads = [
        threading.Thread(
            target=play,
            args=(port, tokens[2 * index : 2 * index + 2], games[index], tallies[index]),
            kwargs={"start": start, "stop_at": stop_at, "seed": index},
            daemon=True,
        )
        for index in range(clients)
    ]
    for thread in threads:
        thread.start()
    stop_at.append(time.monotonic() + seconds)
    start.wait()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    return tallies


def new_game(port: int, first: str, second: str) -> int:
    status, game = request(
        port, "POST", "/api/v1/games/", first, {"seats": [{"type": "user"}, {"type": "open"}]}
    )
    assert status == 201, (status, game)
    status, _joined = request(port, "POST", f"/api/v1/games/{game['id']}/join/", second, {})
    assert status == 200, status
    game_id: int = game["id"]
    return game_id


def play(
    port: int,
    tokens: list[str],
    game_id: int,
    tally: Tally,
    *,
    start: threading.Barrier,
    stop_at: list[float],
    seed: int,
) -> None:
    """Play both seats of one game after another until the time is up."""
    rng = random.Random(seed)
    start.wait()
    seat = 0  # seat 0 acts first; after each action, look at the other seat first
    for _ in range(MAX_ACTIONS_PER_CLIENT):
        if time.monotonic() >= stop_at[0]:
            return
        game_url = f"/api/v1/games/{game_id}/"
        status, legal = request(port, "GET", game_url + "legal-actions/", tokens[seat])
        if status != 200:
            tally.statuses[status] += 1
            continue
        if not legal["actions"]:
            if legal["acting_seat"] is None:  # the game is over: start another
                tally.games_finished += 1
                game_id, seat = new_game(port, tokens[0], tokens[1]), 0
            else:
                seat = legal["acting_seat"]
            continue
        actions, version = legal["actions"], legal["version"]
        while actions:
            action = choose(actions, rng)
            began = time.perf_counter()
            status, answer = request(
                port,
                "POST",
                game_url + "actions/",
                tokens[seat],
                action,
                {"If-Match": f'"{version}"'},
            )
            tally.action_latencies.append(time.perf_counter() - began)
            tally.statuses[status] += 1
            if status != 200:
                break
            # Still this seat's turn (returns, a noble)? The answer lists what it may do next.
            actions, version = answer.get("actions", []), answer["version"]
            if answer.get("acting_seat") is not None:
                seat = answer["acting_seat"]


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    purchases = [action for action in actions if action["type"] == "buy_card"]
    return rng.choice(purchases or actions)


def report(clients: int, tallies: list[Tally], seconds: float, server_cpu: float) -> None:
    latencies = sorted(latency for tally in tallies for latency in tally.action_latencies)
    statuses: Counter[int] = Counter()
    for tally in tallies:
        statuses.update(tally.statuses)
    accepted = statuses.pop(200, 0)
    games = sum(tally.games_finished for tally in tallies)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
    others = ", ".join(f"{count}×{status}" for status, count in sorted(statuses.items())) or "-"
    load = os.getloadavg()[0]  # other work on the machine skews every figure: show it
    cpu_per_action = server_cpu / accepted * 1000 if accepted else float("nan")
    print(
        f"{clients:7d}  {accepted / seconds:10.1f}  {p50:6.1f}  {p99:6.1f}  "
        f"{accepted:7d}  {games:5d}  {cpu_per_action:20.1f}  {load:8.1f}  {others}"
    )


def count_round_trips(
    env: dict[str, str], port: int, tokens: list[str], actions: int, log: Path
) -> None:
    """Play ``actions`` actions with one client against one worker, counting in PostgreSQL's
    log the statements each request sent to the benchmark database."""
    import psycopg

    if not log.exists():
        print(f"round trips not counted: no PostgreSQL log at {log} (--postgres-log)\n")
        return
    with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"ALTER DATABASE {DATABASE_NAME} SET log_statement = 'all'")
    marker = f"@{DATABASE_NAME} LOG:  statement: "
    counts: dict[str, list[int]] = {"GET legal-actions": [], "POST actions": []}
    samples: dict[str, list[str]] = {}
    try:
        with Gunicorn(env, port, 1, 1):
            game_id, seat = new_game(port, tokens[0], tokens[1]), 0
            rng = random.Random(0)
            for _ in range(20):  # warm up: tokens' last use recorded, connections open
                request(port, "GET", f"/api/v1/games/{game_id}/legal-actions/", tokens[0])
            done = 0
            while done < actions:
                url = f"/api/v1/games/{game_id}/"
                before = log.stat().st_size
                status, legal = request(port, "GET", url + "legal-actions/", tokens[seat])
                statements = _statements(log, before, marker, samples, "GET")
                if legal["acting_seat"] is None:
                    game_id, seat = new_game(port, tokens[0], tokens[1]), 0
                    continue
                if not legal["actions"]:
                    # Asked for the wrong seat: a server whose answers do not name the seat to
                    # act (an older version, timed side by side) leaves the client guessing.
                    seat = legal["acting_seat"]
                    continue
                counts["GET legal-actions"].append(statements)
                actions_now, version = legal["actions"], legal["version"]
                while actions_now and done < actions:
                    before = log.stat().st_size
                    status, answer = request(
                        port,
                        "POST",
                        url + "actions/",
                        tokens[seat],
                        choose(actions_now, rng),
                        {"If-Match": f'"{version}"'},
                    )
                    counts["POST actions"].append(_statements(log, before, marker, samples, "POST"))
                    assert status == 200, (status, answer)
                    done += 1
                    actions_now, version = answer.get("actions", []), answer["version"]
                    if answer.get("acting_seat") is not None:
                        seat = answer["acting_seat"]
    finally:
        with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
            connection.execute(f"ALTER DATABASE {DATABASE_NAME} RESET log_statement")
    posts, gets = counts["POST actions"], counts["GET legal-actions"]
    per_action = (sum(posts) + sum(gets)) / len(posts)
    print(f"round trips counted in PostgreSQL's log over {len(posts)} accepted actions:")
    print(f"  POST …/actions/: {statistics.mean(posts):.2f} statements per request")
    print(
        f"  GET …/legal-actions/: {statistics.mean(gets):.2f} per request, "
        f"{len(gets) / len(posts):.2f} requests per action"
    )
    print(f"  per accepted action, both requests: {per_action:.2f}")
    for kind, sample in samples.items():
        print(f"  one {kind}: " + " | ".join(sample))
    print()


def _statements(
    log: Path, offset: int, marker: str, samples: dict[str, list[str]], kind: str
) -> int:
    time.sleep(0.01)  # the server wrote its lines before answering; let the file catch up
    with log.open("rb") as file:
        file.seek(offset)
        lines = [line.decode(errors="replace") for line in file if marker.encode() in line]
    statements = [line.split(marker, 1)[1].strip()[:40] for line in lines]
    if statements and kind not in samples and len(statements) > 1:
        samples[kind] = statements
    return len(statements)


if __name__ == "__main__":
    main()
