"""The event store under load: replaying games, loading snapshots and appending actions.

Runs against a throwaway database of its own, never the configured one's data: with
``DATABASE_URL`` on PostgreSQL it creates ``<name>_bench`` on that server (dropped at the end),
otherwise a temporary SQLite file. It plays finished two-player games of random legal actions
through ``games.commands.play`` (about 85 events each), then measures

* a full replay of a finished game from the database (``records.record_from_log``: the events
  query and the fold), median and p95, target under 1.5 ms;
* loading the state from a current snapshot (fetching the ``Game`` row with
  ``loading.game_get`` and ``loading.game_state``), target under 0.5 ms;
* appending actions through ``play.game_take_action``: actions per second for one client,
  and for 8 processes each playing its own games at the same time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/splendor \\
        .venv/bin/python benchmarks/event_store.py [--games 40] [--repeat 5] [--keep]
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")
# Two accounts play every game here: their per-account caps would stop the run, not measure it.
os.environ.update(GAMES_MAX_CREATED_PER_HOUR="1000000", GAMES_MAX_ACTIVE_PER_ACCOUNT="1000000")

PROCESSES = 8


# Database set-up, before Django reads its settings --------------------------------------------


def use_throwaway_database() -> Callable[[], None]:
    """Point DATABASE_URL at a fresh benchmark database; return the function that drops it."""
    import dj_database_url

    configured = os.environ.get("DATABASE_URL", "").strip()
    parsed = dj_database_url.parse(configured) if configured else {}
    if parsed.get("ENGINE") == "django.db.backends.postgresql":
        import psycopg

        server = {
            "host": parsed.get("HOST") or None,
            "port": parsed.get("PORT") or None,
            "user": parsed.get("USER") or None,
            "password": parsed.get("PASSWORD") or None,
        }

        def admin(sql: str) -> None:
            with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
                conn.execute(sql)

        # Named after the configured database: people sharing a server keep out of each other's.
        bench_db = f"{parsed.get('NAME') or 'splendor'}_bench"
        admin(f"DROP DATABASE IF EXISTS {bench_db} WITH (FORCE)")
        admin(f"CREATE DATABASE {bench_db}")
        user = parsed.get("USER") or ""
        password = f":{parsed['PASSWORD']}" if parsed.get("PASSWORD") else ""
        host = parsed.get("HOST") or "127.0.0.1"
        port = parsed.get("PORT") or 5432
        os.environ["DATABASE_URL"] = f"postgres://{user}{password}@{host}:{port}/{bench_db}"

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            admin(f"DROP DATABASE IF EXISTS {bench_db} WITH (FORCE)")

        return drop
    directory = tempfile.mkdtemp(prefix="splendor_bench_")
    path = Path(directory) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"

    def remove() -> None:
        from django.db import connections

        connections.close_all()
        for leftover in Path(directory).iterdir():
            leftover.unlink()
        Path(directory).rmdir()

    return remove


# Playing through the services -----------------------------------------------------------------


def make_players() -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return (
        users.create_user(username="bench_a", password=None),
        users.create_user(username="bench_b", password=None),
    )


def start_game(players: Sequence[Any], seed: int) -> int:
    from games.commands import lobby

    game = lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(player) for player in players],
        created_by=players[0],
        seed=seed,
    )
    return game.pk


def play_game(game_id: int, players: Sequence[Any], seed: int) -> list[float]:
    """Play random legal actions to the end, as a client that tracks the state itself.

    Returns the seconds each ``game_take_action`` call took.
    """
    from games import engine
    from games.commands import play
    from games.models import Game
    from games.reads import loading

    game = Game.objects.get(pk=game_id)
    state = loading.game_state(game)
    version = game.version
    rng = random.Random(seed)
    clock = time.perf_counter
    timings: list[float] = []
    while engine.outcome(state) is None:
        action = rng.choice(engine.legal_actions(state))
        seat = engine.acting_seat(state)
        started = clock()
        result = play.game_take_action(
            game_id=game_id,
            action=engine.action_to_json(action),
            expected_version=version,
            user=players[seat],
        )
        timings.append(clock() - started)
        state = engine.apply_action(state, action)
        version = result.version
    return timings


def worker(game_ids: list[int], seed: int, barrier: Any, results: Any) -> None:
    """One of the concurrent clients: its own connection, its own games."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    connections.close_all()  # never reuse a connection inherited from the parent
    users = get_user_model().objects.filter(username__in=["bench_a", "bench_b"])
    players = tuple(users.order_by("username"))
    barrier.wait()
    started = time.perf_counter()
    timings: list[float] = []
    try:
        for offset, game_id in enumerate(game_ids):
            timings.extend(play_game(game_id, players, seed + offset))
    except Exception as error:  # report it: the parent prints it instead of a figure
        results.put(("error", f"{type(error).__name__}: {error}", timings))
        return
    finally:
        connections.close_all()
    results.put(("ok", time.perf_counter() - started, timings))


# Measuring ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def measure(
    games: list[int], repeat: int, call: Callable[[int], object], cpu: list[float] | None = None
) -> list[float]:
    """Wall-clock seconds per call; with ``cpu``, this process's CPU seconds per call too (the
    fold and the decoding, not the server's share: a figure that other load skews far less)."""
    clock, cpu_clock = time.perf_counter, time.thread_time
    timings: list[float] = []
    for _ in range(repeat):
        for game_id in games:
            started, cpu_started = clock(), cpu_clock()
            call(game_id)
            timings.append(clock() - started)
            if cpu is not None:
                cpu.append(cpu_clock() - cpu_started)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="finished games to replay")
    parser.add_argument("--repeat", type=int, default=5, help="measurements per game")
    parser.add_argument(
        "--games-per-process", type=int, default=2, help="games each concurrent client plays"
    )
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    drop = use_throwaway_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, connections

    # As in production: with DEBUG on, every query is also formatted and kept in memory, which
    # costs more than some of the reads measured here.
    settings.DEBUG = False

    from games.models import Game, GameEvent
    from games.reads import loading
    from games.store import records

    try:
        call_command("migrate", verbosity=0, interactive=False)
        vendor = connection.vendor
        if vendor == "postgresql":
            number = connection.cursor().connection.info.server_version
            server = f"PostgreSQL {number // 10000}.{number % 10000}"
        else:
            import sqlite3

            server = f"SQLite {sqlite3.sqlite_version}"
        print(
            f"event store benchmark on {vendor} ({connection.settings_dict['NAME']}, "
            f"{server}), {os.cpu_count()} CPUs"
        )

        players = make_players()
        started = time.perf_counter()
        single_client: list[float] = []
        finished: list[int] = []
        for seed in range(args.games):
            game_id = start_game(players, seed)
            single_client.extend(play_game(game_id, players, seed))
            finished.append(game_id)
        setup_seconds = time.perf_counter() - started
        events = GameEvent.objects.filter(game_id__in=finished).count()
        assert Game.objects.filter(pk__in=finished, status="finished").count() == len(finished)
        print(
            f"played {len(finished)} finished 2-player games through the services in "
            f"{setup_seconds:.1f} s: {events / len(finished):.1f} events per game"
        )

        # Full replay from the database: the events query and the fold.
        rows = {game.pk: game for game in Game.objects.filter(pk__in=finished)}
        for game_id in finished[:3]:  # warm up
            records.record_from_log(rows[game_id])
        replay_cpu: list[float] = []
        replay = measure(
            finished, args.repeat, lambda pk: records.record_from_log(rows[pk]), replay_cpu
        )
        checked_cpu: list[float] = []
        checked = measure(
            finished,
            args.repeat,
            lambda pk: records.record_from_log(rows[pk], checked=True),
            checked_cpu,
        )
        replay_with_row = measure(
            finished, args.repeat, lambda pk: records.record_from_log(Game.objects.get(pk=pk))
        )

        # Loading from the snapshot: the Game row as the selectors read it, and the state.
        def load(pk: int) -> object:
            game = loading.game_get(pk)
            assert game.snapshot_version == game.version
            return loading.game_state(game)

        snapshot_cpu: list[float] = []
        snapshot = measure(finished, args.repeat * 4, load, snapshot_cpu)

        # Appending: 8 processes, each playing its own games.
        groups = [
            [
                start_game(players, 10_000 + index * 100 + offset)
                for offset in range(args.games_per_process)
            ]
            for index in range(PROCESSES)
        ]
        connections.close_all()  # before forking: no child may share the parent's socket
        context = multiprocessing.get_context("fork")
        barrier = context.Barrier(PROCESSES)
        queue = context.Queue()
        processes = [
            context.Process(target=worker, args=(group, 20_000 + index * 100, barrier, queue))
            for index, group in enumerate(groups)
        ]
        for process in processes:
            process.start()
        outcomes = [queue.get(timeout=600) for _ in processes]
        for process in processes:
            process.join(timeout=60)
        errors = sorted({outcome[1] for outcome in outcomes if outcome[0] == "error"})
        concurrent_latencies = [value for outcome in outcomes for value in outcome[2]]
        concurrent_actions = len(concurrent_latencies)
        concurrent_wall = max(
            (outcome[1] for outcome in outcomes if outcome[0] == "ok"), default=0.0
        )

        check = finished[:5] + ([] if errors else [pk for group in groups for pk in group])
        call_command("verify_games", *map(str, check), stdout=io.StringIO())  # raises if not

        print()
        load = " ".join(f"{value:.2f}" for value in os.getloadavg())
        print(f"load average after the measurements: {load}")
        print(f"{'measure':<52} {'n':>6} {'median':>10} {'p95':>10} {'target':>9}")
        print("-" * 91)

        def row(name: str, values: list[float], target: str = "") -> None:
            print(
                f"{name:<52} {len(values):>6} {ms(statistics.median(values)):>10} "
                f"{ms(percentile(values, 0.95)):>10} {target:>9}"
            )

        row("full replay, finished game (record_from_log)", replay, "< 1.5 ms")
        row("  the same, this process's CPU only", replay_cpu)
        row("full replay, every action checked (verify_games)", checked)
        row("  the same, this process's CPU only", checked_cpu)
        row("full replay incl. fetching the Game row", replay_with_row)
        row("load from snapshot (Game row + game_state)", snapshot, "< 0.5 ms")
        row("  the same, this process's CPU only", snapshot_cpu)
        row("game_take_action latency, 1 client", single_client)
        if concurrent_latencies:
            row(f"game_take_action latency, {PROCESSES} processes", concurrent_latencies)
        print()
        print(f"{'append throughput':<52} {'actions':>8} {'seconds':>9} {'actions/s':>10}")
        print("-" * 82)
        single_seconds = sum(single_client)
        print(
            f"{'1 client, one game at a time':<52} {len(single_client):>8} "
            f"{single_seconds:>9.2f} {len(single_client) / single_seconds:>10.0f}"
        )
        label = f"{PROCESSES} processes, each its own game"
        if errors:
            print(f"{label:<52} failed in {len(errors)} kind(s) of error: {'; '.join(errors)}")
        else:
            print(
                f"{label:<52} {concurrent_actions:>8} {concurrent_wall:>9.2f} "
                f"{concurrent_actions / concurrent_wall:>10.0f}"
            )
        print()
        print(f"verify_games: {len(check)} games replayed, snapshots and read models match")
    finally:
        if args.keep:
            print(f"kept the benchmark database ({os.environ['DATABASE_URL']})")
        else:
            drop()


if __name__ == "__main__":
    main()
