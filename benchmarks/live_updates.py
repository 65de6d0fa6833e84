"""How fast a move reaches the other open pages, and what idle pages cost the ASGI server.

The production path: uvicorn (one process) serving the site, PostgreSQL, Redis pub/sub, a
Celery worker for the bots, and Chromium showing the pages. Prints:

1. move → other page: from a player's move committed (the services' after-commit hook, in this
   process) to the other player's page showing that version (its status region carries it),
   p50 and p99 over ``--moves`` moves between two humans;
2. human move → bot reply shown, for the greedy and the search bot: from the human's move
   committed to the human's page showing the bot's reply;
3. idle pages: ``--idle`` event streams held open at once by a small asyncio client (raw
   sockets, loopback, opened in bounded batches), the server's open streams and its memory
   (resident set size) before and after, the memory per open stream, and how long one move
   takes to reach all of them. They all come from one address, so the server's caps on
   streams per address (``LIVE_STREAMS_PER_ADDRESS``) are lifted for the run.

Uses a database of its own (``splendor_bench_live``, created, migrated and dropped) on the
PostgreSQL of ``DATABASE_URL`` and the Redis of ``REDIS_URL`` as given (its database number
keeps the pub/sub channels apart). Ports: ``--port`` (default 18810). With ``--moves 0
--bot-moves 0`` only the idle pages are measured, and no browser is needed.

    .venv/bin/python benchmarks/live_updates.py [--moves 100] [--bot-moves 20] [--idle 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")
# Playwright's sync API and the idle-page client run an event loop in this thread while the
# script uses the ORM between their steps, one thing at a time.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

BENCH_DB = "splendor_bench_live"
PASSWORD = "bench-passphrase-long-enough"
IDLE_BATCH = 50


def use_bench_database() -> Any:
    import dj_database_url
    import psycopg

    parsed = dj_database_url.parse(
        os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1/x"
    )
    if parsed["ENGINE"] != "django.db.backends.postgresql" or not os.environ.get("REDIS_URL"):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures the production path")
    server = {
        "host": parsed["HOST"] or "127.0.0.1",
        "port": parsed["PORT"] or 5432,
        "user": parsed["USER"] or "postgres",
    }

    def admin(sql: str) -> None:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
            conn.execute(sql)

    admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    admin(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = (
        f"postgres://{server['user']}@{server['host']}:{server['port']}/{BENCH_DB}"
    )
    return lambda: admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


def start(command: list[str], log: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=log)


def wait_for_http(url: str) -> None:
    import urllib.request

    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                sys.exit(f"{url} did not answer")
            time.sleep(0.2)


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms (n={len(ordered)})"
    )


class CommitClock:
    """Records when each (game, version) was committed, from an after-commit hook."""

    def __init__(self) -> None:
        from games.commands import after_commit

        self.committed: dict[tuple[int, int], float] = {}
        after_commit.register_after_commit(self.record)

    def record(self, committed: Any) -> None:
        """The hook: told the ``after_commit.Committed`` of each commit."""
        # Wall-clock time: the pages note when they show a version on the same machine's clock.
        self.committed[(committed.game_id, committed.version)] = time.time()


def log_in(context: Any, url: str, username: str) -> Any:
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{url}/lobby/")
    return page


# Notes, in the page, the moment each version's status region enters the page (epoch ms).
RECORD_SHOWN = """() => {
    window.shownAt = {};
    new MutationObserver(() => {
        const status = document.getElementById("region-status");
        const version = status && status.dataset.version;
        if (version && !(version in window.shownAt)) { window.shownAt[version] = Date.now(); }
    }).observe(document.body, {childList: true, subtree: true});
}"""


def open_game(page: Any, url: str, game_id: int) -> None:
    from playwright.sync_api import Error

    for attempt in range(3):
        try:  # the previous game's page may be reloading itself (the game ended) right now
            page.goto(f"{url}/games/{game_id}/")
            break
        except Error:
            if attempt == 2:
                raise
            page.wait_for_timeout(500)
    page.wait_for_selector(".game[data-push=open]", timeout=10_000)
    page.evaluate(RECORD_SHOWN)


def shown(page: Any, version: int) -> float:
    """When the page showed ``version`` (epoch seconds), as the page itself noted it."""
    page.wait_for_selector(f"#region-status[data-version='{version}']", timeout=15_000)
    return float(page.evaluate(f"window.shownAt['{version}']")) / 1000


def a_move(game: Any, user: Any) -> dict[str, Any]:
    """What the greedy bot would play for ``user``: a realistic move, chosen from their view."""
    from games import engine, variants
    from games.reads import game_view

    view = game_view.game_view_for_viewer(game, user)["state"]
    return engine.action_to_json(variants.choose_bot_action("greedy", view, seed=game.version))


def moves_between_humans(url: str, browser: Any, clock: CommitClock, moves: int) -> list[float]:
    from django.contrib.auth import get_user_model

    from games.commands import lobby, play
    from games.models import Game
    from games.vocabulary import Status

    users = [get_user_model().objects.get(username=name) for name in ("ann", "ben")]
    pages = [log_in(browser.new_context(), url, user.username) for user in users]
    latencies: list[float] = []
    game = None
    while len(latencies) < moves:
        if game is None or game.status != Status.ACTIVE:
            game = lobby.game_create(
                variant="splendor", seats=[lobby.UserSeat(u) for u in users], created_by=users[0]
            )
            for page in pages:
                open_game(page, url, game.pk)
        mover = game.acting_seat
        result = play.game_take_action(
            game_id=game.pk,
            action=a_move(game, users[mover]),
            expected_version=game.version,
            user=users[mover],
        )
        game = Game.objects.get(pk=game.pk)
        if game.status != Status.ACTIVE:
            continue  # the page reloads on the end: not a pushed region
        seen = shown(pages[1 - mover], result.version)
        latencies.append(seen - clock.committed[(game.pk, result.version)])
    return latencies


def bot_replies(url: str, browser: Any, clock: CommitClock, level: str, moves: int) -> list[float]:
    from django.contrib.auth import get_user_model

    from games.commands import lobby, play
    from games.models import Game
    from games.vocabulary import Status

    human = get_user_model().objects.get(username="ann")
    page = log_in(browser.new_context(), url, "ann")
    latencies: list[float] = []
    game = None
    while len(latencies) < moves:
        if game is None or game.status != Status.ACTIVE:
            game = lobby.game_create(
                variant="splendor",
                seats=[lobby.UserSeat(human), lobby.BotSeat(level)],
                created_by=human,
            )
            open_game(page, url, game.pk)
        result = play.game_take_action(
            game_id=game.pk,
            action=a_move(game, human),
            expected_version=game.version,
            user=human,
        )
        committed = clock.committed[(game.pk, result.version)]
        deadline = time.monotonic() + 30
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Status.ACTIVE or game.acting_seat == 0:
                break
            if time.monotonic() > deadline:
                sys.exit(f"game {game.pk}: the bot did not reply")
            time.sleep(0.005)
        if game.status != Status.ACTIVE or game.version == result.version:
            continue
        latencies.append(shown(page, game.version) - committed)
    return latencies


async def hold_idle_streams(port: int, game_id: int, count: int) -> tuple[list[Any], float]:
    """Open ``count`` event streams as a spectator; return the open sockets and the time to
    open them all."""
    began = time.monotonic()
    streams: list[Any] = []
    request = (
        f"GET /games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    ).encode()

    async def one() -> Any:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        status = await asyncio.wait_for(reader.readline(), 30)
        assert b" 200 " in status, status
        await asyncio.wait_for(reader.readuntil(b"retry:"), 30)
        return reader, writer

    for start in range(0, count, IDLE_BATCH):
        streams += await asyncio.gather(*(one() for _ in range(min(IDLE_BATCH, count - start))))
    return streams, time.monotonic() - began


async def fan_out(streams: list[Any], version: int) -> float:
    marker = f"data: {version}\n".encode()
    began = time.monotonic()
    await asyncio.gather(*(asyncio.wait_for(r.readuntil(marker), 30) for r, _ in streams))
    return time.monotonic() - began


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def database_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [BENCH_DB])
        return int(cursor.fetchone()[0])


def open_sockets(pid: int) -> int:
    return sum(1 for fd in Path(f"/proc/{pid}/fd").iterdir() if "socket" in os.readlink(fd))


def idle_pages(port: int, server_pid: int, count: int) -> None:
    from django.contrib.auth import get_user_model

    from games.commands import lobby, play

    users = [get_user_model().objects.get(username=name) for name in ("ann", "ben")]
    game = lobby.game_create(
        variant="splendor", seats=[lobby.UserSeat(u) for u in users], created_by=users[0]
    )
    time.sleep(1)
    before = rss_mb(server_pid)
    sockets_before = open_sockets(server_pid)

    async def run() -> None:
        streams, opening = await hold_idle_streams(port, game.pk, count)
        await asyncio.sleep(2)
        print(
            f"  {count} idle pages opened in {opening:.1f} s; server sockets "
            f"{sockets_before} -> {open_sockets(server_pid)}"
        )
        after = rss_mb(server_pid)
        print(
            f"  server memory (RSS) {before:.0f} MB -> {after:.0f} MB; "
            f"database connections now {database_connections()}"
        )
        print(f"  memory per open stream: {(after - before) * 1024 / count:.0f} KB")
        fresh = play.game_take_action(
            game_id=game.pk,
            action=a_move(game, users[0]),
            expected_version=game.version,
            user=users[0],
        )
        spread = await fan_out(streams, fresh.version)
        print(f"  one move reached all {count} streams in {spread:.2f} s")
        for _, writer in streams:
            writer.close()

    asyncio.run(run())


def browser_measurements(url: str, clock: CommitClock, moves: int, bot_moves: int) -> None:
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        print("1. move committed -> other player's page shows it:")
        print("  ", percentiles(moves_between_humans(url, browser, clock, moves)))
        for level in ("greedy", "search"):
            print(f"2. human move committed -> {level} bot's reply shown:")
            print("  ", percentiles(bot_replies(url, browser, clock, level, bot_moves)))
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--bot-moves", type=int, default=20)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--port", type=int, default=18810)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.idle + 512)), hard))
    drop_database = use_bench_database()
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    for name in ("ann", "ben"):
        get_user_model().objects.create_user(username=name, password=PASSWORD)
    clock = CommitClock()
    url = f"http://127.0.0.1:{args.port}"
    log = tempfile.NamedTemporaryFile(prefix="live-bench-", suffix=".log", delete=False)  # noqa: SIM115
    os.environ["LIVE_STREAMS_PER_ADDRESS"] = str(args.idle + 10)  # every idle page is 127.0.0.1
    server = start(
        [sys.executable, "-m", "uvicorn", "splendor_site.asgi:application", "--port",
         str(args.port), "--no-access-log", "--log-level", "warning",
         "--timeout-graceful-shutdown", "2"], log,
    )  # fmt: skip
    worker = start(
        [sys.executable, "-m", "celery", "-A", "splendor_site", "worker", "--concurrency=1",
         "-l", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat"], log,
    )  # fmt: skip
    try:
        wait_for_http(f"{url}/")
        print(f"load average at start: {os.getloadavg()}")
        if args.moves or args.bot_moves:
            browser_measurements(url, clock, args.moves, args.bot_moves)
        print(f"3. idle pages on one uvicorn process (pid {server.pid}):")
        idle_pages(args.port, server.pid, args.idle)
        print(f"load average at end: {os.getloadavg()}")
    finally:
        for process in (server, worker):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        from django.db import connections

        connections.close_all()
        drop_database()
        print(f"(server and worker log: {log.name})")


if __name__ == "__main__":
    main()
