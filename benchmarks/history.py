"""Game history: the replay viewer's render time and the bulk export's throughput.

Runs against a throwaway database of its own (as ``event_store.py``): ``splendor_bench`` on the
PostgreSQL server of ``DATABASE_URL``, else a temporary SQLite file. It

* plays a few finished two-player games of random legal actions through ``games.commands.play``,
  then times ``GET /games/<id>/replay/?step=80`` through Django's test client (the whole
  server side: middleware, the events query, the engine's replay, the table presenter and the
  templates), as a full page and as the htmx swap of the board; target under 30 ms;
* copies those games' event logs into ``--games`` (10,000) stored games (PostgreSQL's COPY,
  so the set-up takes seconds), then streams the bulk export (gzipped JSON Lines) of them all
  and reports games per second (target at least 2,000) and the peak Python memory of an
  export of a fifth of them and of all of them (traced separately): flat means constant memory.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/splendor \\
        .venv/bin/python benchmarks/history.py [--games 10000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

from event_store import make_players, start_game, use_throwaway_database  # noqa: E402

REPLAY_STEP = 80


def play_long_game(players: Any, seed: int) -> int:
    """A finished game of uniformly random moves (long enough to have a step 80)."""
    from games import engine
    from games.commands import play
    from games.models import Game
    from games.reads import loading
    from games.vocabulary import Status

    game_id = start_game(players, seed)
    rng = random.Random(seed)
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != Status.ACTIVE:
            return game_id
        state = loading.game_state(game)
        assert state is not None
        seat = engine.acting_seat(state)
        play.game_take_action(
            game_id=game_id,
            action=engine.action_to_json(rng.choice(engine.legal_actions(state))),
            expected_version=game.version,
            user=players[seat],
        )


def time_replay(game_id: int, repeat: int) -> dict[str, list[tuple[float, float]]]:
    """Server time of the step's page and htmx swap, with the cache warm (the game's words and
    that step's board kept from an earlier view) and cold (emptied before each request)."""
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    url = f"/games/{game_id}/replay/?step={REPLAY_STEP}"
    kinds = {"page": {}, "htmx": {"HTTP_HX_REQUEST": "true"}}
    timings: dict[str, list[tuple[float, float]]] = {}
    for warm in (True, False):
        for kind, headers in kinds.items():
            name = f"{kind}, cache {'warm' if warm else 'cold'}"
            timings[name] = []
            client.get(url, **headers)  # warm the template cache
            for _ in range(repeat):
                if not warm:
                    cache.clear()
                started, cpu = time.perf_counter(), time.thread_time()
                response = client.get(url, **headers)
                timings[name].append((time.perf_counter() - started, time.thread_time() - cpu))
                assert response.status_code == 200, response.status_code
    # Stepping through: the game's words are cached, each step's board is drawn for the first time.
    cache.clear()
    client.get(url)
    name = "htmx, each step new: words cached, board drawn"
    timings[name] = []
    for step in range(REPLAY_STEP - 1, max(-1, REPLAY_STEP - 1 - repeat), -1):
        started, cpu = time.perf_counter(), time.thread_time()
        response = client.get(f"/games/{game_id}/replay/?step={step}", HTTP_HX_REQUEST="true")
        timings[name].append((time.perf_counter() - started, time.thread_time() - cpu))
        assert response.status_code == 200, response.status_code
    timings["live game page, same board"] = []
    for _ in range(repeat):  # for scale: the game page draws the same partials
        started, cpu = time.perf_counter(), time.thread_time()
        client.get(f"/games/{game_id}/")
        timings["live game page, same board"].append(
            (time.perf_counter() - started, time.thread_time() - cpu)
        )
    return timings


def clone_games(template_ids: list[int], total: int) -> None:
    """``total`` finished public games, each a copy of one of the templates' rows and events."""
    from django.db import connection, transaction

    from games.models import Game, GameEvent, Seat

    templates = []
    for game_id in template_ids:
        game = Game.objects.get(pk=game_id)
        seats = list(Seat.objects.filter(game=game).order_by("index"))
        events = list(GameEvent.objects.filter(game=game).order_by("seq"))
        templates.append((game, seats, events))
    batch = 1000
    made = 0
    while made < total:
        count = min(batch, total - made)
        with transaction.atomic():
            chosen = [templates[(made + n) % len(templates)] for n in range(count)]
            games = Game.objects.bulk_create(
                Game(
                    variant=g.variant,
                    status=g.status,
                    seat_count=g.seat_count,
                    is_public=True,
                    version=g.version,
                    commitment=g.commitment,
                    result=g.result,
                    started_at=g.started_at,
                    finished_at=g.finished_at,
                )
                for g, _, _ in chosen
            )
            Seat.objects.bulk_create(
                Seat(game=new, index=s.index, display_name=s.display_name, bot_level=s.bot_level)
                for new, (_, seats, _) in zip(games, chosen, strict=True)
                for s in seats
            )
            rows = (
                (new.pk, e.seq, e.kind, json.dumps(e.payload), 1, e.seat, e.created_at)
                for new, (_, _, events) in zip(games, chosen, strict=True)
                for e in events
            )
            if connection.vendor == "postgresql":
                columns = "game_id, seq, kind, payload, schema_version, seat, created_at"
                with connection.cursor() as cursor:
                    sql = f"COPY games_gameevent ({columns}) FROM STDIN"
                    with cursor.cursor.copy(sql) as copy:
                        for row in rows:
                            copy.write_row(row)
            else:
                GameEvent.objects.bulk_create(
                    GameEvent(
                        game_id=g, seq=s, kind=k, payload=json.loads(p), seat=st, created_at=c
                    )
                    for g, s, k, p, _, st, c in rows
                )
        made += count
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would after such a load


def export_all() -> tuple[float, int, float]:
    """(this process's CPU seconds, compressed bytes, seconds) of one bulk export, read to the
    end; the rest of the time is the database's."""
    from games.reads.exports import bulk_export_games

    started, cpu = time.perf_counter(), time.process_time()
    size = 0
    for piece in bulk_export_games():
        size += len(piece)
    seconds = time.perf_counter() - started
    return time.process_time() - cpu, size, seconds


def peak_memory_of_export(limit_id: int | None) -> float:
    """Peak traced Python memory (MiB) while exporting the games up to ``limit_id``."""
    from games.models import Game
    from games.reads import exports

    if limit_id is not None:
        Game.objects.filter(pk__gt=limit_id).update(is_public=False)
    tracemalloc.start()
    for _ in exports.bulk_export_games():
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if limit_id is not None:
        Game.objects.filter(pk__gt=limit_id).update(is_public=True)
    return peak / 2**20


def profiled(enabled: bool, work: Any, *args: Any) -> Any:
    """Run ``work``; with ``enabled``, print where its time went."""
    if not enabled:
        return work(*args)
    import cProfile
    import pstats

    profile = cProfile.Profile()
    result = profile.runcall(work, *args)
    pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="stored games to export")
    parser.add_argument("--templates", type=int, default=4, help="games played for real")
    parser.add_argument("--repeat", type=int, default=30, help="replay renders timed")
    parser.add_argument("--exports", type=int, default=3, help="bulk exports timed")
    parser.add_argument("--profile", action="store_true", help="print a profile of each part")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    drop = use_throwaway_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.DEBUG = False  # as in production: DEBUG keeps every query in memory
    try:
        call_command("migrate", verbosity=0, stdout=io.StringIO())
        from games.models import Game
        from games.reads import timeline

        players = make_players()
        templates = [play_long_game(players, seed) for seed in range(1, args.templates + 1)]
        steps = {
            game_id: timeline.game_timeline_for_viewer(Game.objects.get(pk=game_id), None).last_step
            for game_id in templates
        }
        longest = max(steps, key=lambda game_id: steps[game_id])
        if steps[longest] < REPLAY_STEP:
            raise SystemExit(f"no game reached step {REPLAY_STEP}: use more --templates")
        print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}")
        print(f"replayed game: {steps[longest]} steps; rendering step {REPLAY_STEP}")
        for kind, timings in profiled(args.profile, time_replay, longest, args.repeat).items():
            ms = sorted(wall * 1000 for wall, _ in timings)
            cpu = statistics.median(cpu * 1000 for _, cpu in timings)
            p95 = ms[int(len(ms) * 0.95) - 1]
            print(
                f"replay viewer ({kind}): median {statistics.median(ms):.1f} ms "
                f"(CPU {cpu:.1f} ms), p95 {p95:.1f} ms over {len(ms)} renders (target < 30 ms)"
            )

        started = time.perf_counter()
        clone_games(templates, args.games - len(templates))
        print(f"stored {args.games} finished games in {time.perf_counter() - started:.1f} s")
        for _ in range(args.exports):
            cpu, size, seconds = profiled(args.profile, export_all)
            print(
                f"bulk export: {args.games} games, {size / 2**20:.1f} MiB gzipped, in "
                f"{seconds:.2f} s (CPU here {cpu:.2f} s) = {args.games / seconds:,.0f} games/s "
                f"(target >= 2,000), load {os.getloadavg()[0]:.2f}"
            )
        fifth = Game.objects.order_by("pk").values_list("pk", flat=True)[args.games // 5 - 1]
        small = peak_memory_of_export(fifth)
        large = peak_memory_of_export(None)
        print(
            f"peak traced memory: {small:.1f} MiB for {args.games // 5} games, "
            f"{large:.1f} MiB for {args.games} games"
        )
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        if not args.keep:
            drop()


if __name__ == "__main__":
    main()
