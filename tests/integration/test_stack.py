"""The real stack from its one command: `./dev stack` on a database and Redis of its own.

A person signs up through HTTP, gets a token, plays a base game and a Duel against bots through
the API to the end (the bots move in the stack's Celery workers), receives a turn mail at a
real SMTP server, reads /health/ and the metrics of every process; then one SIGINT stops every
process within 10 s. The test prints the time from the command to the first served page and
each process's memory at rest.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
import redis
import requests
from aiosmtpd.controller import Controller
from django.conf import settings

from tests.integration.conftest import WORKER_REDIS_DB, redis_url_with_db
from tests.notifications.conftest import SmtpInbox, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 90
STOP_SECONDS = 10
GAME_SECONDS = 90
FINISHED = {"finished", "aborted"}
METRICS_TOKEN = uuid.uuid4().hex


@dataclass
class Stack:
    process: subprocess.Popen[bytes]
    url: str
    env: dict[str, str]
    log_path: Path
    seconds_to_first_page: float

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [str(ROOT / ".venv" / "bin" / "python"), "manage.py", *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        return done.stdout


def connect_as_owner(dbname: str) -> psycopg.Connection[tuple[object, ...]]:
    db = settings.DATABASES["default"]
    owner = settings.DATABASE_OWNER or {"USER": db.get("USER"), "PASSWORD": db.get("PASSWORD")}
    return psycopg.connect(
        host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or None,
        user=owner["USER"] or None, password=owner["PASSWORD"] or None,
        dbname=dbname, autocommit=True, connect_timeout=5,
    )  # fmt: skip


def database_urls(name: str) -> tuple[str, str]:
    """The application role's and the owner's URLs of database ``name``."""
    db = settings.DATABASES["default"]
    owner = settings.DATABASE_OWNER or {"USER": db.get("USER"), "PASSWORD": db.get("PASSWORD")}
    where = f"{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"

    def url(user: str | None, password: str | None) -> str:
        credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        return f"postgres://{credentials}{where}"

    return url(db.get("USER"), db.get("PASSWORD")), url(owner["USER"], owner["PASSWORD"])


@pytest.fixture
def stack_database() -> Iterator[str]:
    """A fresh database owned by the owner role, as `createdb --owner` makes it."""
    name = f"splendor_stack_{uuid.uuid4().hex[:8]}"
    with connect_as_owner("postgres") as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield name
    with connect_as_owner("postgres") as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def smtp_inbox() -> Iterator[tuple[SmtpInbox, int]]:
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    inbox, port = SmtpInbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


def wait_for_page(stack: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if stack.poll() is not None:
            pytest.fail(f"./dev stack exited with {stack.returncode}:\n{log_path.read_text()}")
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        time.sleep(0.2)
    pytest.fail(f"no page at {url} in {READY_SECONDS} s:\n{log_path.read_text()}")


def descendants(pid: int) -> dict[int, str]:
    """Every live process below ``pid``: pid → command line. honcho starts each process of
    the Procfile in a session of its own, so the tree, not a process group, finds them."""
    parents, commands = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        if fields[0] != "Z":  # a zombie has exited
            parents[int(entry.name)], commands[int(entry.name)] = int(fields[1]), command
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, its_parent in parents.items() if its_parent == parent]
        found.update((child, commands[child]) for child in children)
        frontier.extend(children)
    return found


def still_running(pids: dict[int, str]) -> dict[int, str]:
    running = {}
    for pid, command in pids.items():
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running[pid] = command
    return running


def resident_megabytes(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@pytest.fixture
def stack(
    stack_database: str, smtp_inbox: tuple[SmtpInbox, int], tmp_path: Path
) -> Iterator[Stack]:
    app_url, owner_url = database_urls(stack_database)
    redis_url = redis_url_with_db(os.environ["REDIS_URL"], WORKER_REDIS_DB)
    redis.Redis.from_url(redis_url).flushdb()
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": app_url,
        "DATABASE_OWNER_URL": owner_url,
        "REDIS_URL": redis_url,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "STACK_STATE": str(tmp_path / "state"),
        "STACK_NAME": uuid.uuid4().hex[:8],
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_inbox[1]),
        "BOT_SEARCH_SECONDS": "0.05",
        "METRICS_TOKEN": METRICS_TOKEN,
    }
    for variable in ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "SITE_URL"):
        env.pop(variable, None)
    log_path = tmp_path / "stack.log"
    url = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(ROOT / "dev"), "stack"], cwd=ROOT, env=env, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        wait_for_page(process, url + "/", log_path)
        yield Stack(process, url, env, log_path, time.monotonic() - started)
    finally:
        if process.poll() is None:
            running = descendants(process.pid)
            process.kill()
            process.wait()
            for pid in still_running(running):
                os.kill(pid, signal.SIGKILL)
        redis.Redis.from_url(redis_url).flushdb()


def sign_up(url: str, username: str, email: str) -> requests.Session:
    browser = requests.Session()
    form = browser.get(f"{url}/accounts/signup/", timeout=10)
    form.raise_for_status()
    password = uuid.uuid4().hex
    answer = browser.post(
        f"{url}/accounts/signup/",
        data={
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
            "username": username, "email": email,
            "password1": password, "password2": password,
        },
        headers={"Referer": f"{url}/accounts/signup/"},
        timeout=10,
    )  # fmt: skip
    answer.raise_for_status()
    assert "sessionid" in browser.cookies, answer.text[:2000]
    return browser


def play_against_a_bot(url: str, token: str, variant: str) -> dict[str, object]:
    """Create a game against the random bot and play its person's seat through the API."""
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {token}"
    created = api.post(
        f"{url}/api/v1/games/",
        json={"variant": variant, "seats": [{"type": "user"}, {"type": "bot", "level": "random"}]},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_url = url + created.headers["Location"]
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        looked = api.get(game_url, timeout=10)
        looked.raise_for_status()
        game = looked.json()
        if game["status"] in FINISHED:
            return game  # type: ignore[no-any-return]
        actions, etag = game["legal_actions"], looked.headers["ETag"]
        while actions:
            purchases = [action for action in actions if action["type"] == "buy_card"]
            answer = api.post(
                game_url + "actions/", json=(purchases or actions)[0],
                headers={"If-Match": etag, "Idempotency-Key": str(uuid.uuid4())}, timeout=10,
            )  # fmt: skip
            if answer.status_code == 412:
                break
            assert answer.status_code < 300, answer.text
            actions, etag = answer.json()["actions"], answer.headers["ETag"]
        time.sleep(0.05)
    pytest.fail(f"the {variant} game at {game_url} did not end in {GAME_SECONDS} s")


def move_then_wait_for(url: str, token: str, away: requests.Session) -> int:
    """A game whose creator moves first through the API and then waits for a player who took
    the other seat through the site's join form and went away: his turn mail is due."""
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {token}"
    created = api.post(
        f"{url}/api/v1/games/",
        json={"variant": "splendor", "seats": [{"type": "user"}, {"type": "open"}]},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_id = int(created.json()["id"])
    joined = away.post(
        f"{url}/games/{game_id}/join/",
        data={"csrfmiddlewaretoken": away.cookies["csrftoken"]},
        headers={"Referer": f"{url}/lobby/"},
        allow_redirects=False,  # the game's page would count him as there
        timeout=10,
    )
    assert joined.status_code == 303, joined.text[:2000]
    game_url = url + created.headers["Location"]
    looked = api.get(game_url, timeout=10)
    looked.raise_for_status()
    take = next(a for a in looked.json()["legal_actions"] if a["type"] == "take_gems")
    moved = api.post(
        game_url + "actions/", json=take,
        headers={"If-Match": looked.headers["ETag"], "Idempotency-Key": str(uuid.uuid4())},
        timeout=10,
    )  # fmt: skip
    assert moved.status_code < 300, moved.text
    return game_id


def sample(text: str, name: str, **labels: str) -> float:
    """The sum of the samples ``name{labels...}`` of a scrape (0 when there is none)."""
    total = 0.0
    for line in text.splitlines():
        found = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line)
        if found:
            have = dict(re.findall(r'(\w+)="([^"]*)"', found.group(1) or ""))
            if all(have.get(key) == wanted for key, wanted in labels.items()):
                total += float(found.group(2))
    return total


def test_the_whole_stack_serves_plays_mails_and_stops_on_one_sigint(
    stack: Stack, smtp_inbox: tuple[SmtpInbox, int]
) -> None:
    inbox, _ = smtp_inbox
    sign_up(stack.url, "stacker", "stacker@example.com")
    token = re.search(r"spl_[A-Za-z0-9_-]+", stack.manage("create_api_token", "stacker"))
    assert token, "create_api_token printed no token"

    away = sign_up(stack.url, "faraway", "faraway@example.com")

    base = play_against_a_bot(stack.url, token.group(), "splendor")
    duel = play_against_a_bot(stack.url, token.group(), "duel")
    waits_for_away = move_then_wait_for(stack.url, token.group(), away)

    assert base["status"] == "finished"
    assert duel["status"] == "finished"
    # Playing through the API, stacker is present and gets no mail; faraway joined and left.
    [first] = inbox.wait_for(1, timeout=30)
    assert first.to == ["faraway@example.com"]
    assert f"#{waits_for_away}" in str(first.message["Subject"])
    assert inbox.to("stacker@example.com") == []
    health = requests.get(f"{stack.url}/health/?format=json", timeout=15)
    assert health.status_code == 200, health.text
    # Counted in uvicorn's two processes and the workers', added up from their files.
    metrics = requests.get(
        f"{stack.url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=10
    )
    assert metrics.status_code == 200
    for variant in ("splendor", "duel"):
        for kind in ("GameStarted", "ActionTaken", "GameFinished"):
            assert sample(metrics.text, "splendor_events_committed_total", variant=variant,
                          kind=kind) >= 1, (variant, kind)  # fmt: skip
    assert sample(metrics.text, "splendor_bot_turn_seconds_count", queue="bots_with_players") > 10
    assert sample(metrics.text, "splendor_mails_total", outcome="sent") >= 1
    assert sample(metrics.text, "django_http_responses_total_by_status_total", status="200") > 10

    at_rest = descendants(stack.process.pid)
    print(f"\n./dev stack: first page after {stack.seconds_to_first_page:.1f} s; at rest:")
    for pid, command in sorted(at_rest.items()):
        print(f"  {resident_megabytes(pid):6.1f} MB  {command[:110]}")

    stack.process.send_signal(signal.SIGINT)
    stopped_by = time.monotonic() + STOP_SECONDS
    while still_running(at_rest) and time.monotonic() < stopped_by:
        time.sleep(0.1)
    left = still_running(at_rest)
    assert stack.process.wait(timeout=1) != 0  # stopped by a signal, as honcho reports
    assert not left, f"still running {STOP_SECONDS} s after SIGINT: {left}\n{stack.log()}"
    for name in ("web", "players", "bots", "stats", "analysis", "training", "mail", "beat"):
        assert re.search(rf"^\d\d:\d\d:\d\d {name}\.1 +\| ", stack.log(), re.MULTILINE), name
