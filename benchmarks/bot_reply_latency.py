"""How long a player waits for the bot: from a human move committed to the bot's reply committed.

The production path end to end: PostgreSQL, Redis and one Celery worker process that this script
starts. A human plays random legal actions through ``games.commands.play`` against the greedy
bot, in as many games as it takes; each move that leaves the game waiting for the bot is followed by
the bot's reply, queued by the services' after-commit hook and played by the worker. The latency of
one reply is the time between the human's ``ActionTaken`` and the bot's next ``ActionTaken`` (their
``created_at``): commit, publish, delivery, loading, choosing, appending.

It uses a database of its own, ``splendor_bench_bots`` (created, migrated, dropped at the end),
on the PostgreSQL server of ``DATABASE_URL`` (default 127.0.0.1:5432, user postgres), and Redis
database 14 on the server of ``REDIS_URL`` (default 127.0.0.1:6379), flushed before and after.

    .venv/bin/python benchmarks/bot_reply_latency.py [--moves 200] [--pool prefork|solo] [--keep]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

from benchmarks.throwaway import start_worker, stop_worker, use_throwaway_services  # noqa: E402

BENCH_DB = "splendor_bench_bots"
BENCH_REDIS_DB = 14
HUMAN, BOT = 0, 1
REPLY_TIMEOUT_SECONDS = 30
WORKER_NAME = "bench-bots@localhost"


def task_runtimes(log: Path) -> list[float]:
    """Seconds each bot turn spent inside the worker (loading, choosing, appending), as the
    worker logs them."""
    played = re.compile(r"play_bot_turn\[[^\]]+\] succeeded in ([0-9.e-]+)s: 'played'")
    return [float(seconds) for seconds in played.findall(log.read_text(errors="replace"))]


# Playing ---------------------------------------------------------------------------------------


def play_against_the_bot(moves: int, seed: int) -> tuple[list[float], int]:
    """Play ``moves`` human moves that the bot must answer; return the reply latencies in
    seconds and the number of games it took."""
    from django.contrib.auth import get_user_model

    from games.commands import lobby, play
    from games.models import Game, GameEvent
    from games.reads import game_view
    from games.vocabulary import Status

    human = get_user_model().objects.create_user(username="bench_human", password=None)
    rng = random.Random(seed)
    latencies: list[float] = []
    games = 0

    def created_at(game_id: int, seq: int) -> datetime:
        return GameEvent.objects.get(game_id=game_id, seq=seq).created_at

    while len(latencies) < moves:
        game = lobby.game_create(
            variant="splendor",
            seats=[lobby.UserSeat(human), lobby.BotSeat("greedy")],
            created_by=human,
            seed=rng.randrange(2**32),
        )
        games += 1
        while game.status == Status.ACTIVE and len(latencies) < moves:
            legal = game_view.game_legal_actions_for_viewer(game, human)
            result = play.game_take_action(
                game_id=game.pk,
                action=rng.choice(legal),
                expected_version=game.version,
                user=human,
            )
            game = Game.objects.get(pk=game.pk)
            if game.status != Status.ACTIVE or game.acting_seat != BOT:
                continue  # the game is over, or it asks the human for more (tokens, a noble)
            game = wait_for_reply(game.pk, after=result.version)
            reply = (
                GameEvent.objects.filter(
                    game_id=game.pk, seq__gt=result.version, kind="ActionTaken", seat=BOT
                )
                .order_by("seq")
                .values_list("created_at", flat=True)
                .first()
            )
            assert reply is not None
            latencies.append((reply - created_at(game.pk, result.events[0])).total_seconds())
    return latencies, games


def wait_for_reply(game_id: int, *, after: int) -> Any:
    from games.models import Game

    deadline = time.monotonic() + REPLY_TIMEOUT_SECONDS
    while True:
        game = Game.objects.get(pk=game_id)
        if game.version > after and game.acting_seat != BOT:
            return game
        if time.monotonic() > deadline:
            sys.exit(f"game {game_id}: no reply from the bot in {REPLY_TIMEOUT_SECONDS} s")
        # Polling speed does not change the figures, which come from the events' timestamps.
        time.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="human moves the bot answers")
    parser.add_argument("--pool", choices=["prefork", "solo"], default="prefork")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    remove = use_throwaway_services(BENCH_DB, BENCH_REDIS_DB)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    try:
        call_command("migrate", verbosity=0, interactive=False)
        number = connection.cursor().connection.info.server_version
        print(
            f"bot reply latency: greedy bot, 1 Celery worker ({args.pool}, 1 process), "
            f"PostgreSQL {number // 10000}.{number % 10000} ({BENCH_DB}), "
            f"Redis db {BENCH_REDIS_DB}, {os.cpu_count()} CPUs"
        )
        with tempfile.TemporaryDirectory(prefix="bench-bots-") as folder:
            log_path = Path(folder) / "worker.log"
            with log_path.open("wb") as log:
                worker = start_worker(WORKER_NAME, log, pool=args.pool, ready_seconds=30)
                try:
                    started = time.perf_counter()
                    latencies, games = play_against_the_bot(args.moves, args.seed)
                    elapsed = time.perf_counter() - started
                finally:
                    stop_worker(worker, grace_seconds=20)
            runtimes = task_runtimes(log_path)
        print(f"{len(latencies)} replies in {games} games, {elapsed:.1f} s")
        print(summary("human move -> bot reply", latencies))
        print(summary("bot turn inside the worker (load, choose, append)", runtimes))
    finally:
        remove(args.keep)
        if args.keep:
            print(f"kept database {BENCH_DB}")


def summary(label: str, seconds: list[float]) -> str:
    ms = [value * 1000 for value in seconds]
    return (
        f"{label}: median {statistics.median(ms):.1f} ms, "
        f"p95 {statistics.quantiles(ms, n=20)[18]:.1f} ms, mean {statistics.fmean(ms):.1f} ms, "
        f"max {max(ms):.1f} ms ({len(ms)} measured)"
    )


if __name__ == "__main__":
    main()
