"""Analytics at scale: full rebuild, counting one more game, the statistics page, peak memory.

Runs against a throwaway PostgreSQL database of its own (``splendor_analytics_bench`` on the
server ``DATABASE_URL`` names; dropped at the end unless ``--keep``). It stores ``--games``
finished bot games (2–4 seats, bot levels mixed, finishing over 30 days), written in bulk in the
services' event format by ``analytics.synthetic`` (random legal play that prefers buying), then
prints:

* the full rebuild (``manage.py rebuild_analytics`` in a fresh process): games/s and the
  process's peak resident memory (aims: at least 500 games/s, under 300 MB);
* counting one more finished game (``projections.count_game``): median and p95 (aim: < 50 ms);
* the statistics page's server time through Django's test client, with every filter off and
  with two on (aim: < 200 ms).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/splendor \\
        .venv/bin/python benchmarks/analytics.py [--games 10000] [--keep]
"""

from __future__ import annotations

import argparse
import os
import random
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

BENCH_DB = "splendor_analytics_bench"
START = datetime(2026, 1, 1, tzinfo=UTC)
BATCH = 100


def use_bench_database(keep: bool) -> str:
    import dj_database_url
    import psycopg

    parsed = dj_database_url.parse(os.environ.get("DATABASE_URL", ""))
    if parsed.get("ENGINE") != "django.db.backends.postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL server: the figures are for PostgreSQL")
    server = {key.lower(): parsed.get(key) or None for key in ("HOST", "PORT", "USER", "PASSWORD")}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
        query = "SELECT 1 FROM pg_database WHERE datname = %s"
        exists = conn.execute(query, [BENCH_DB]).fetchone()
        if not (keep and exists):
            conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {BENCH_DB}")
    user = parsed.get("USER") or ""
    password = f":{parsed['PASSWORD']}" if parsed.get("PASSWORD") else ""
    host, port = parsed.get("HOST") or "127.0.0.1", parsed.get("PORT") or 5432
    url = f"postgres://{user}{password}@{host}:{port}/{BENCH_DB}"
    os.environ["DATABASE_URL"] = url
    return url


def write_batch(first: int) -> int:
    import django

    django.setup()
    from analytics import synthetic

    rng = random.Random(first)
    plans = []
    for index in range(first, first + BATCH):
        seats = [synthetic.SeatPlan(bot_level=rng.choice(synthetic.BOT_LEVELS))
                 for _ in range(rng.choice((2, 3, 4)))]  # fmt: skip
        plans.append(synthetic.GamePlan(seats=seats, seed=index))
    day = START + timedelta(days=(first // BATCH) % 30, seconds=first)
    synthetic.write_games(plans, start=day)
    return len(plans)


def timed(function, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


def describe(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms (n={len(ordered)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--keep", action="store_true", help="keep the database (and reuse it)")
    args = parser.parse_args()
    url = use_bench_database(args.keep)

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

    env = {**os.environ, "DATABASE_URL": url}
    for processes in (1, 2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        command = [sys.executable, "manage.py", "rebuild_analytics", f"--processes={processes}"]
        subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        # ru_maxrss of children is the largest single process: the rebuild, or one pool worker.
        peak_mb = after.ru_maxrss / 1024
        print(
            f"full rebuild, {processes} process(es): {games} games in {seconds:.1f} s = "
            f"{games / seconds:.0f} games/s (aim >= 500); {cpu:.1f} CPU-s = "
            f"{games / cpu:.0f} games per CPU-second; peak memory of one process "
            f"{peak_mb:.0f} MB (aim < 300 MB)"
        )

    from analytics import projections, synthetic

    new_ids = synthetic.write_games(
        [synthetic.GamePlan(seats=[synthetic.SeatPlan(bot_level="greedy")] * 3, seed=10**9 + i)
         for i in range(20)], start=START + timedelta(days=15))  # fmt: skip
    pending = iter(new_ids)
    count_times = timed(lambda: projections.count_game(next(pending)), 20)
    print("count one more finished game:", describe(count_times), "(aim < 50 ms)")

    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    started = time.perf_counter()
    client.get("/stats/")
    first_ms = (time.perf_counter() - started) * 1000
    print(f"stats page, first view (draws the charts): {first_ms:.0f} ms")
    client.get("/stats/", {"players": "3", "bots": "bots"})
    page_times = timed(lambda: client.get("/stats/"), 10)
    print("stats page, no filter:", describe(page_times), "(aim < 200 ms)")
    two = {"players": "3", "bots": "bots"}
    filtered_times = timed(lambda: client.get("/stats/", two), 10)
    print("stats page, players=3 & bots:", describe(filtered_times), "(aim < 200 ms)")
    print("stats API, no filter:", describe(timed(lambda: client.get("/api/v1/stats/"), 10)))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    if not args.keep:
        from django.db import connections

        connections.close_all()
        import psycopg

        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
