"""Analytics at scale: full rebuild, counting one more game, the statistics page, peak memory.

Runs against a throwaway PostgreSQL database of its own (``--database``, by default
``<DATABASE_URL's name>_bench``, on the server ``DATABASE_URL`` names, so people sharing a
server keep out of each other's; dropped at the end unless ``--keep``). It stores ``--games``
finished bot games (2–4 seats, bot levels mixed, finishing over 30 days), written in bulk in the
services' event format by ``testing.synthetic`` (random legal play that prefers buying), then
prints:

* the full rebuild (``manage.py rebuild_analytics`` in a fresh process): games/s and the
  process's peak resident memory (aims: at least 500 games/s, under 300 MB);
* counting one more finished game (``projections.count_game``): median and p95 (aim: < 50 ms);
  and counting a game that arrives after 100 and 1000 games that finished later (their ratings
  are replayed after it: ratings follow the order games finished);
* the statistics page's server time through Django's test client, with every filter off and
  with two on (aim: < 200 ms).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/splendor \\
        .venv/bin/python benchmarks/analytics.py [--games 10000] [--keep]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

START = datetime(2026, 1, 1, tzinfo=UTC)
BATCH = 100


def use_bench_database(name: str, keep: bool) -> str:
    import dj_database_url
    import psycopg

    parsed = dj_database_url.parse(os.environ.get("DATABASE_URL", ""))
    if parsed.get("ENGINE") != "django.db.backends.postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL server: the figures are for PostgreSQL")
    server = {key.lower(): parsed.get(key) or None for key in ("HOST", "PORT", "USER", "PASSWORD")}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
        query = "SELECT 1 FROM pg_database WHERE datname = %s"
        exists = conn.execute(query, [name]).fetchone()
        if not (keep and exists):
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    user = parsed.get("USER") or ""
    password = f":{parsed['PASSWORD']}" if parsed.get("PASSWORD") else ""
    host, port = parsed.get("HOST") or "127.0.0.1", parsed.get("PORT") or 5432
    url = f"postgres://{user}{password}@{host}:{port}/{name}"
    os.environ["DATABASE_URL"] = url
    return url


def write_batch(first: int) -> int:
    import django

    django.setup()
    from testing import synthetic

    rng = random.Random(first)
    plans = []
    for index in range(first, first + BATCH):
        seats = [
            synthetic.SeatPlan(bot_level=rng.choice(synthetic.BOT_LEVELS))
            for _ in range(rng.choice((2, 3, 4)))
        ]
        plans.append(synthetic.GamePlan(seats=seats, seed=index))
    day = START + timedelta(days=(first // BATCH) % 30, seconds=first)
    synthetic.write_games(plans, start=day)
    return len(plans)


def timed(function, repeat: int) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Wall and CPU milliseconds of each call (CPU: this process's, not the database's)."""
    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def describe(times: tuple[list[float], list[float]]) -> str:
    walls, cpus = times
    ordered = sorted(walls)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms wall; "
        f"median {statistics.median(cpus):.1f} ms CPU (n={len(ordered)}); load {load()}"
    )


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def count_out_of_order(later: int, repeat: int) -> tuple[list[float], list[float]]:
    """Times of counting a game after ``later`` games that finished after it were counted: the
    ratings of those games are replayed after it (every game shares the bot levels)."""
    from analytics import projections
    from testing import synthetic

    walls: list[float] = []
    cpus: list[float] = []
    for round_ in range(repeat):
        rng = random.Random(round_)
        plans = [
            synthetic.GamePlan(
                seats=[
                    synthetic.SeatPlan(bot_level=rng.choice(synthetic.BOT_LEVELS))
                    for _ in range(rng.choice((2, 3, 4)))
                ],
                seed=2 * 10**9 + later * 100 + round_ * (later + 1) + index,
            )
            for index in range(later + 1)
        ]
        first, *rest = synthetic.write_games(plans, start=START + timedelta(days=40 + round_))
        for game_id in rest:
            projections.count_game(game_id)
        wall, cpu = timed(lambda first=first: projections.count_game(first), 1)  # type: ignore[misc]
        walls += wall
        cpus += cpu
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--keep", action="store_true", help="keep the database (and reuse it)")
    parser.add_argument("--database", help="its name (default: DATABASE_URL's name + _bench)")
    args = parser.parse_args()
    if args.database is None:
        import dj_database_url

        configured = dj_database_url.parse(os.environ.get("DATABASE_URL", ""))
        args.database = f"{configured.get('NAME') or 'splendor'}_bench"
    url = use_bench_database(args.database, args.keep)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.models import Game

    have = Game.objects.filter(status="finished").count()
    if have < args.games:
        started = time.perf_counter()
        firsts = list(range(have, args.games, BATCH))
        from django.db import connections

        connections.close_all()
        with Pool(2) as pool:
            written = sum(pool.imap_unordered(write_batch, firsts))
        print(f"wrote {written} finished bot games in {time.perf_counter() - started:.0f} s")
    games = Game.objects.filter(status="finished").count()
    from games.models import GameEvent

    print(f"{games} finished games, {GameEvent.objects.count()} events in PostgreSQL")

    from django.db import connection

    with connection.cursor() as cursor:  # as autovacuum would have, after the bulk writes
        cursor.execute("VACUUM (ANALYZE) games_game, games_gameevent, games_seat")
    env = {**os.environ, "DATABASE_URL": url}
    for processes in (1, 2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        command = [sys.executable, "manage.py", "rebuild_analytics", f"--processes={processes}"]
        done = subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        # ru_maxrss of children is the largest single process: the rebuild, or one pool worker.
        peak_mb = after.ru_maxrss / 1024
        said = done.stdout.decode().strip().splitlines()[-1]
        rebuild_seconds = float(re.search(r" in ([0-9.]+) s", said).group(1))  # type: ignore[union-attr]
        print(
            f"full rebuild, {processes} process(es): {games} games in {rebuild_seconds:.1f} s "
            f"= {games / rebuild_seconds:.0f} games/s (aim >= 500) [the command: {said}]; "
            f"whole process with start-up and vacuum {seconds:.1f} s; {cpu:.1f} CPU-s in all "
            f"processes = {games / cpu:.0f} games per CPU-second; peak memory of one process "
            f"{peak_mb:.0f} MB (aim < 300 MB); load {load()}"
        )

    from analytics import projections
    from testing import synthetic

    # After every game there: counted in the order they finished, the usual case.
    new_ids = synthetic.write_games(
        [
            synthetic.GamePlan(seats=[synthetic.SeatPlan(bot_level="greedy")] * 3, seed=10**9 + i)
            for i in range(20)
        ],
        start=START + timedelta(days=31),
    )
    pending = iter(new_ids)
    count_times = timed(lambda: projections.count_game(next(pending)), 20)
    print("count one more finished game:", describe(count_times), "(aim < 50 ms)")
    for later, repeat in ((100, 5), (1000, 2)):
        print(
            f"count a game arriving after {later} games that finished later (their ratings are "
            f"replayed):",
            describe(count_out_of_order(later, repeat)),
        )

    from django.core.cache import cache
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    two = {"players": "3", "bots": "bots"}
    started = time.perf_counter()
    client.get("/stats/")
    first_ms = (time.perf_counter() - started) * 1000
    print(f"stats page, first view (draws the charts too): {first_ms:.0f} ms")
    client.get("/stats/", two)
    print(
        "stats page, no filter:",
        describe(timed(lambda: client.get("/stats/"), 10)),
        "(aim < 200 ms)",
    )
    print(
        "stats page, players=3 & bots:",
        describe(timed(lambda: client.get("/stats/", two), 10)),
        "(aim < 200 ms)",
    )
    print("stats API, no filter:", describe(timed(lambda: client.get("/api/v1/stats/"), 10)))

    # The first view after a game is counted: the version changed, so nothing cached applies
    # (the charts, keyed by their numbers, are cleared too, to be drawn again).
    def after_a_count(params: dict[str, str]) -> None:
        projections.new_version()
        cache.clear()
        client.get("/stats/", params)

    print(
        "stats page, first view after a count, no filter:",
        describe(timed(lambda: after_a_count({}), 5)),
        "(aim < 200 ms)",
    )
    print(
        "stats page, first view after a count, players=3 & bots:",
        describe(timed(lambda: after_a_count(two), 5)),
        "(aim < 200 ms)",
    )

    if not args.keep:
        from django.db import connections

        connections.close_all()
        import psycopg

        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {args.database} WITH (FORCE)")


if __name__ == "__main__":
    main()
