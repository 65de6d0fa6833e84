"""Mail figures on the production path: PostgreSQL, Redis, one Celery worker, a real SMTP server.

1. Turn mail latency: two people play (greedy moves, through ``games.commands.play``); after
each
   move that passes the turn, the next player's mail is awaited at the loopback SMTP server
   (aiosmtpd). Latency = the mail's arrival minus the move's last event's ``created_at``
   (stamped inside the transaction, just before the commit): commit, publish, delivery to the
   worker, rendering, SMTP. p50 and p99 over ``--turns`` turns.
2. The daily digest for ``--users`` players with ``--games`` games waiting each: time from
   publishing ``send_due_digests`` to the last digest's arrival; then the same run in this
   process, counting its queries.
3. Mails per game for a simulated population (``--population-games`` games per kind): a player
   who stays on the page, who leaves after ``--leave-after`` moves and comes back from each
   mail, who leaves for good (time-outs play on), who plays through the API. Each plays greedy
   against an opponent who stays on the page; tasks run in-process, mail goes to the SMTP
   server. Presence comes from the calls the site's views make (the stream's heartbeat, an API
   request); the presence window is shortened so that a player who left is away at once.

It uses a database of its own, ``splendor_bench_mail`` (created, migrated, dropped), on the
PostgreSQL server of ``DATABASE_URL`` (default 127.0.0.1:5432, user postgres), and Redis
database ``--redis-db`` (13) on the server of ``REDIS_URL``, flushed before and after.

    .venv/bin/python benchmarks/notifications.py [--turns 100] [--users 1000] [--games 5]
        [--population-games 10] [--leave-after 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

from benchmarks.throwaway import start_worker, stop_worker, use_throwaway_services  # noqa: E402

BENCH_DB = "splendor_bench_mail"
WORKER_NAME = "bench-mail@localhost"
MAIL_TIMEOUT_SECONDS = 300


def use_mail_services(redis_db: int, smtp_port: int) -> Callable[[bool], None]:
    """Throwaway services, with mail sent to the loopback SMTP server and no account caps."""
    remove = use_throwaway_services(BENCH_DB, redis_db)
    os.environ.update(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        # One opponent sits in every digest game, and a reader creates five in an hour.
        MAX_DEADLINE_GAMES_PER_USER="1000000",
        GAMES_MAX_ACTIVE_PER_ACCOUNT="1000000",
        GAMES_MAX_CREATED_PER_HOUR="1000000",
    )
    return remove


class Inbox:
    """Counts what the SMTP server accepted, with the time each arrived."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[float, str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.arrivals.append((time.time(), envelope.rcpt_tos[0]))
        return "250 OK"

    def to(self, address: str) -> list[float]:
        return [arrived for arrived, to in self.arrivals if to == address]

    def wait_for(self, count: int) -> list[tuple[float, str]]:
        deadline = time.monotonic() + MAIL_TIMEOUT_SECONDS
        while len(self.arrivals) < count:
            if time.monotonic() > deadline:
                sys.exit(f"{count} mails expected, {len(self.arrivals)} arrived")
            time.sleep(0.002)
        return self.arrivals[:count]


def turn_mail_latencies(inbox: Inbox, turns: int) -> list[float]:
    from django.contrib.auth import get_user_model

    from games import engine, variants
    from games.commands import lobby, play
    from games.models import Game, GameEvent, Seat
    from games.reads import game_view
    from games.vocabulary import Status

    User = get_user_model()
    players = [
        User.objects.create_user(username=name, password=None, email=f"{name}@example.com")
        for name in ("bench_alice", "bench_bob")
    ]
    latencies: list[float] = []
    expected = len(inbox.arrivals)
    game: Any = None
    while len(latencies) < turns:
        if game is None or game.status != Status.ACTIVE:
            game = lobby.game_create(
                variant="splendor",
                seats=[lobby.UserSeat(user) for user in players],
                created_by=players[1],
                move_seconds=86400,
            )  # by bob: alice's first turn is news to her, so it is mailed
            expected += 1
            inbox.wait_for(expected)
            game = Game.objects.get(pk=game.pk)
        acting = Seat.objects.get(game=game, index=game.acting_seat).user
        view = game_view.game_view_for_viewer(game, acting)["state"]
        action = variants.choose_bot_action("greedy", view, seed=game.version)
        result = play.game_take_action(
            game_id=game.pk,
            action=engine.action_to_json(action),
            expected_version=game.version,
            user=acting,
        )
        game = Game.objects.get(pk=game.pk)
        if game.status != Status.ACTIVE or game.acting_seat == _seat_of(game, acting):
            continue  # over, or the same player decides more (tokens, a noble): no mail
        expected += 1
        arrived, _ = inbox.wait_for(expected)[-1]
        committed = GameEvent.objects.get(game=game, seq=result.version).created_at
        latencies.append(arrived - committed.timestamp())
    return latencies


def _seat_of(game: Any, user: Any) -> int:
    from games.models import Seat

    return Seat.objects.get(game=game, user=user).index


POPULATION = ("stays on the page", "leaves after N moves", "leaves for good", "plays by API")
POPULATION_PRESENCE_SECONDS = 0.5
"""The presence window of the simulation: short, so that a player who left is away at once."""


def mails_per_game(inbox: Inbox, games: int, leave_after: int) -> dict[str, tuple[float, float]]:
    """For each kind of player: (mails to them, turns that waited for them) per game."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from notifications.services import presence_record

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.PRESENCE_SECONDS = POPULATION_PRESENCE_SECONDS
    settings.API_PRESENCE_SECONDS = POPULATION_PRESENCE_SECONDS
    User = get_user_model()
    figures: dict[str, tuple[float, float]] = {}
    for number, kind in enumerate(POPULATION):
        player = User.objects.create_user(username=f"pop{number}", email=f"pop{number}@example.com")
        opponent = User.objects.create_user(username=f"opp{number}", email=f"opp{number}@ex.com")
        mails = turns = 0
        for game_number in range(games):
            before = len(inbox.to(player.email))
            turns += _play_population_game(
                kind,
                player,
                opponent,
                seed=game_number,
                leave_after=leave_after,
                mark=presence_record,
            )
            mails += len(inbox.to(player.email)) - before
        figures[kind] = (mails / games, turns / games)
    return figures


def _play_population_game(
    kind: str, player: Any, opponent: Any, *, seed: int, leave_after: int, mark: Any
) -> int:
    """One game, ``player`` (seat 0) against ``opponent``; the turns that waited for player.

    Before every action, everyone whose page is open (or whose API client is at work) is
    marked present, as the stream's heartbeat keeps doing while a page stays open.
    """
    from django.conf import settings

    from games import engine, variants
    from games.commands import lobby, play
    from games.commands.deadline_tasks import apply_turn_deadlines
    from games.models import Game
    from games.reads import game_view
    from games.vocabulary import Status

    game = lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(player), lobby.UserSeat(opponent)],
        created_by=player,
        seed=seed,
        move_seconds=86400,
    )  # they made it and go to its page (or their API client plays it)
    page, api = settings.PRESENCE_SECONDS, settings.API_PRESENCE_SECONDS
    moves = turns = 0
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Status.ACTIVE:
            return turns
        seat = game.acting_seat
        user = player if seat == 0 else opponent
        has_left = kind in ("leaves after N moves", "leaves for good") and moves >= leave_after
        if user == player:
            turns += 1
            if kind == "leaves for good" and has_left:
                if game.seats.get(index=0).is_away:
                    return turns  # the bot keeps the seat: the game is no longer theirs
                deadline = game.turn_deadline
                apply_turn_deadlines(now=(deadline + timedelta(seconds=1)).isoformat())
                continue
            moves += 1
        while True:  # the whole turn: tokens to give back, a noble to choose
            mark(user_id=opponent.pk, game_id=game.pk, seconds=page)
            if kind == "plays by API":
                mark(user_id=player.pk, game_id=game.pk, seconds=api)  # it reads the game
            elif not has_left or user == player:  # after leaving: back from the mail's link
                mark(user_id=player.pk, game_id=game.pk, seconds=page)
            view = game_view.game_view_for_viewer(game, user)["state"]
            action = engine.action_to_json(
                variants.choose_bot_action("greedy", view, seed=game.version)
            )
            play.game_take_action(
                game_id=game.pk, action=action, expected_version=game.version, user=user
            )
            game = Game.objects.get(pk=game.pk)
            if game.status != Status.ACTIVE or game.acting_seat != seat:
                break
        leaves = kind in ("leaves after N moves", "leaves for good")
        if user == player and leaves and moves >= leave_after:  # page closed after this move
            time.sleep(POPULATION_PRESENCE_SECONDS * 1.5)  # away at once


def set_up_digest_readers(users: int, games: int) -> datetime:
    """``users`` digest readers at 09:00 UTC, each with ``games`` games waiting for them."""
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from games.commands import after_commit, lobby

    saved = list(after_commit._hooks)
    after_commit._hooks.clear()  # set-up only: no turn mail for these games
    try:
        User = get_user_model()
        opponent = User.objects.create_user(username="bench_opponent", password=None)
        readers = User.objects.bulk_create(
            User(username=f"reader{number}", email=f"reader{number}@example.com")
            for number in range(users)
        )
        Profile.objects.bulk_create(
            Profile(user=reader, notify="daily_digest", digest_hour=9, time_zone="UTC")
            for reader in readers
        )
        choices = [None, 3600, 86400, 259200]
        for number, reader in enumerate(readers):
            for game in range(games):
                lobby.game_create(
                    variant="splendor",
                    seats=[lobby.UserSeat(reader), lobby.UserSeat(opponent)],
                    created_by=reader,
                    seed=number * games + game,
                    move_seconds=choices[(number + game) % len(choices)],
                )
    finally:
        after_commit._hooks.extend(saved)
    return datetime.now(UTC).replace(hour=9, minute=5, second=0, microsecond=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--games", type=int, default=5, help="waiting games per digest reader")
    parser.add_argument("--population-games", type=int, default=10, help="games per kind")
    parser.add_argument("--leave-after", type=int, default=5, help="moves before leaving")
    parser.add_argument("--redis-db", type=int, default=13)
    args = parser.parse_args()

    import logging

    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every command
    inbox = Inbox()
    with tempfile.TemporaryDirectory() as folder:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        remove = use_mail_services(args.redis_db, port)
        controller = Controller(inbox, hostname="127.0.0.1", port=port)
        controller.start()
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from notifications.tasks import send_due_digests

        log_path = Path(folder) / "worker.log"
        try:
            call_command("migrate", verbosity=0, interactive=False)
            print(
                f"notifications: 1 Celery worker (solo), PostgreSQL ({BENCH_DB}), Redis db "
                f"{args.redis_db}, aiosmtpd on 127.0.0.1:{port}, {os.cpu_count()} CPUs, "
                f"load average {os.getloadavg()[0]:.2f}"
            )
            with log_path.open("wb") as log:
                worker = start_worker(
                    WORKER_NAME,
                    log,
                    queues=("celery", "mail"),
                    pool="solo",
                    log_level="warning",
                    ready_seconds=30,
                )
                try:
                    latencies = turn_mail_latencies(inbox, args.turns)
                    print(summary("move committed -> turn mail at the SMTP server", latencies))
                    print(f"load average after the turns: {os.getloadavg()[0]:.2f}")
                    started = time.perf_counter()
                    moment = set_up_digest_readers(args.users, args.games)
                    print(
                        f"set-up: {args.users} readers x {args.games} waiting games in "
                        f"{time.perf_counter() - started:.0f} s"
                    )
                    before = len(inbox.arrivals)
                    published = time.time()
                    send_due_digests.delay(moment.isoformat())
                    last, _ = inbox.wait_for(before + args.users)[-1]
                    print(
                        f"digest via the worker: {args.users} mails in "
                        f"{last - published:.2f} s (publish -> last arrival), load average "
                        f"{os.getloadavg()[0]:.2f}"
                    )
                finally:
                    stop_worker(worker)
            next_day = moment + timedelta(days=1)
            statements = 0

            def count(execute: Any, sql: str, *args: Any) -> Any:
                nonlocal statements
                statements += 1
                return execute(sql, *args)

            with connection.execute_wrapper(count):
                started = time.perf_counter()
                sent = send_due_digests(next_day.isoformat())
                elapsed = time.perf_counter() - started
            print(
                f"digest in-process (next day): {sent} mails in {elapsed:.2f} s, "
                f"{statements} SQL statements ({statements / max(sent, 1):.2f} per "
                f"reader), load average {os.getloadavg()[0]:.2f}"
            )
            population = mails_per_game(inbox, args.population_games, args.leave_after)
            print(
                f"turn mail per game, {args.population_games} games per kind, greedy against "
                f"an opponent on the page (leaving after {args.leave_after} moves):"
            )
            for kind, (mails, turns) in population.items():
                print(
                    f"  {kind:<22} {mails:5.1f} mails per game ({turns:.1f} turns waited for them)"
                )
        finally:
            controller.stop()
            remove()


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(value * 1000 for value in seconds)
    p99 = statistics.quantiles(ms, n=100)[98] if len(ms) > 1 else ms[0]
    return (
        f"{label}: p50 {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms, "
        f"mean {statistics.fmean(ms):.0f} ms, max {ms[-1]:.0f} ms ({len(ms)} turns)"
    )


if __name__ == "__main__":
    main()
