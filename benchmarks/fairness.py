"""Fairness: how long a player waits for a greedy bot while another account runs bot-only games.

One account (the "hog") creates games of four search bots until its cap refuses
(``GAMES_MAX_BOT_ONLY_PER_ACCOUNT``); their turns keep a worker busy. Meanwhile another account
plays random legal moves against the greedy bot, and each reply's latency is measured from the
human's ``ActionTaken`` to the bot's (their ``created_at``): commit, publish, delivery, choosing,
appending. Everything goes through PostgreSQL, Redis and real Celery worker processes.

Layouts (``--layout``):
  split   the README's: one worker for ``bots_with_players`` and ``celery``, one for
          ``bots_only``, each one process (the fair layout);
  shared  one worker with two processes consuming every queue (what one queue amounted to).

It uses a database of its own, ``splendor_bench_fairness`` (created, migrated, dropped), on the
PostgreSQL server of ``DATABASE_URL`` (default 127.0.0.1:5432, user postgres), and the Redis
database of ``REDIS_URL`` (or ``--redis-db``), flushed before and after.

    .venv/bin/python benchmarks/fairness.py [--moves 60] [--layout split|shared] [--keep]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

from benchmarks.throwaway import start_worker, stop_worker, use_throwaway_services  # noqa: E402

BENCH_DB = "splendor_bench_fairness"
HUMAN, BOT = 0, 1
REPLY_TIMEOUT_SECONDS = 60
SEARCH_BOTS = 4


def start_bot_only_games(hog: Any) -> tuple[list[int], int]:
    """The hog's search-bot games, created until the cap refuses; returns them and the refusals."""
    from games.commands import lobby
    from games.errors import LimitReached

    games: list[int] = []
    refused = 0
    for attempt in range(40):  # the attack that prompted the caps made 40
        try:
            game = lobby.game_create(
                variant="splendor",
                seats=[lobby.BotSeat("search")] * SEARCH_BOTS,
                created_by=hog,
                seed=attempt,
            )
        except LimitReached:
            refused += 1
        else:
            games.append(game.pk)
    return games, refused


def play_against_greedy(human: Any, moves: int, seed: int) -> list[float]:
    from games.commands import lobby, play
    from games.models import Game, GameEvent
    from games.reads import game_view
    from games.vocabulary import Status

    rng = random.Random(seed)
    latencies: list[float] = []
    while len(latencies) < moves:
        game = lobby.game_create(
            variant="splendor",
            seats=[lobby.UserSeat(human), lobby.BotSeat("greedy")],
            created_by=human,
            seed=rng.randrange(2**32),
        )
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
                continue
            game = wait_for_reply(game.pk, after=result.version)
            events = GameEvent.objects.filter(game_id=game.pk, kind="ActionTaken")
            moved = events.get(seq=result.events[0]).created_at
            reply = events.filter(seq__gt=result.version, seat=BOT).order_by("seq").first()
            assert reply is not None
            latencies.append((reply.created_at - moved).total_seconds())
    return latencies


def wait_for_reply(game_id: int, *, after: int) -> Any:
    from games.models import Game

    deadline = time.monotonic() + REPLY_TIMEOUT_SECONDS
    while True:
        game = Game.objects.get(pk=game_id)
        if game.version > after and game.acting_seat != BOT:
            return game
        if time.monotonic() > deadline:
            sys.exit(f"game {game_id}: no reply from the bot in {REPLY_TIMEOUT_SECONDS} s")
        time.sleep(0.01)  # the figures come from the events' timestamps, not from this poll


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="human moves the bot answers")
    parser.add_argument("--layout", choices=["split", "shared"], default="split")
    parser.add_argument("--redis-db", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    remove = use_throwaway_services(BENCH_DB, args.redis_db)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.models import Game, GameEvent
    from games.vocabulary import Status

    load_before = os.getloadavg()
    try:
        call_command("migrate", verbosity=0, interactive=False)
        users = get_user_model().objects
        hog = users.create_user(username="bench_hog", password=None)
        human = users.create_user(username="bench_human", password=None)
        players_queues = [settings.BOT_QUEUE_WITH_PLAYERS, settings.CELERY_TASK_DEFAULT_QUEUE]
        with tempfile.TemporaryDirectory(prefix="bench-fairness-") as folder:
            workers = []
            logs = [(Path(folder) / f"worker-{n}.log").open("wb") for n in range(2)]
            if args.layout == "split":
                workers.append(start_worker("players@bench", logs[0], queues=players_queues))
                workers.append(
                    start_worker("bots@bench", logs[1], queues=[settings.BOT_QUEUE_BOTS_ONLY])
                )
            else:
                every = [*players_queues, settings.BOT_QUEUE_BOTS_ONLY]
                workers.append(start_worker("shared@bench", logs[0], queues=every, processes=2))
            try:
                hog_games, refused = start_bot_only_games(hog)
                time.sleep(2)  # let the search bots get going
                started = time.perf_counter()
                hog_turns_before = GameEvent.objects.filter(game_id__in=hog_games).count()
                latencies = play_against_greedy(human, args.moves, args.seed)
                elapsed = time.perf_counter() - started
                hog_turns = GameEvent.objects.filter(game_id__in=hog_games).count()
                hog_running = Game.objects.filter(pk__in=hog_games, status=Status.ACTIVE).count()
            finally:
                for worker in workers:
                    stop_worker(worker)
                for log in logs:
                    log.close()
        load_after = os.getloadavg()
        print(
            f"fairness ({args.layout} layout), {os.cpu_count()} CPUs, "
            f"BOT_SEARCH_SECONDS={settings.BOT_SEARCH_SECONDS}"
        )
        print(
            f"hog: {len(hog_games)} games of {SEARCH_BOTS} search bots running, {refused} more "
            f"refused by the cap; {hog_turns - hog_turns_before} of their events during the "
            f"measurement, {hog_running} still running at its end"
        )
        ms = sorted(value * 1000 for value in latencies)
        print(
            f"human move -> greedy reply, {len(ms)} replies in {elapsed:.1f} s: "
            f"p50 {percentile(ms, 0.5):.0f} ms, p90 {percentile(ms, 0.9):.0f} ms, "
            f"p99 {percentile(ms, 0.99):.0f} ms, max {ms[-1]:.0f} ms, "
            f"mean {statistics.fmean(ms):.0f} ms"
        )
        print(
            "load average (1, 5, 15 min): before "
            + " ".join(f"{x:.2f}" for x in load_before)
            + ", after "
            + " ".join(f"{x:.2f}" for x in load_after)
        )
    finally:
        remove(args.keep)


if __name__ == "__main__":
    main()
