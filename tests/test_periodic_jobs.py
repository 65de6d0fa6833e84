"""Periodic jobs without beat: once by command, or on their schedule in the server process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts import services as account_services
from games.commands import lobby
from games.commands.lobby import UserSeat
from splendor_site.periodic_jobs import (
    InProcessScheduler,
    PeriodicJob,
    periodic_jobs,
    start_in_process_scheduler,
)

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def embedded(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the quick start: what a job queues runs here
    settings.SITE_URL = "http://testserver"


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str) -> User:
        return User.objects.create_user(username=username, email=f"{username}@example.com")

    return make


def hour_game_waiting_for(user: User, opponent: User) -> None:
    lobby.game_create(variant="splendor", seats=[UserSeat(user), UserSeat(opponent)],
                      created_by=user, move_seconds=3600)  # fmt: skip


def digest_now(user: User) -> None:
    account_services.profile_update(
        user, notify="daily_digest", time_zone="UTC", digest_hour=timezone.now().hour
    )


def subjects() -> list[tuple[str, str]]:
    return [(mail.to[0], mail.subject) for mail in django_mail.outbox]


def test_the_command_runs_every_job_of_beats_schedule_once(alice: User, bob: User) -> None:
    out = StringIO()

    call_command("run_periodic_jobs", stdout=out)

    # Nothing is due on a new site; beat's heartbeat is recorded where there is Redis to hold it.
    done = dict.fromkeys(settings.CELERY_BEAT_SCHEDULE, 0)
    done["record-beat-heartbeat"] = 1 if settings.REDIS_URL else 0
    assert out.getvalue().splitlines() == [f"{name}: {count}" for name, count in done.items()]


def test_the_command_sends_the_digest_that_is_due(alice: User, bob: User) -> None:
    digest_now(alice)
    hour_game_waiting_for(alice, bob)
    django_mail.outbox.clear()

    call_command("run_periodic_jobs", stdout=StringIO())

    [(to, subject)] = subjects()
    assert to == "alice@example.com"
    assert subject == "1 game waiting for your move"


def test_the_command_shows_a_reminder_as_if_the_clock_were_ahead(alice: User, bob: User) -> None:
    hour_game_waiting_for(alice, bob)
    django_mail.outbox.clear()

    call_command("run_periodic_jobs", stdout=StringIO())
    assert django_mail.outbox == []  # nothing is due yet
    out = StringIO()
    call_command("run_periodic_jobs", "--ahead", "50", stdout=out)

    [(to, subject)] = subjects()
    assert to == "alice@example.com"
    assert subject.startswith("Reminder: your move")
    assert "send-due-reminders: 1" in out.getvalue()


def test_the_command_refuses_a_clock_going_back(alice: User) -> None:
    with pytest.raises(CommandError, match="--ahead"):
        call_command("run_periodic_jobs", "--ahead", "-5", stdout=StringIO())


RUNS: list[str] = []


# A job is a Celery task, found by its name as beat finds it.
@shared_task(name="tests.periodic_jobs.count_a_run")
def count_a_run() -> None:
    RUNS.append(threading.current_thread().name)


def wait_until(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)


def test_the_scheduler_sends_a_due_digest_by_itself(alice: User, bob: User, tmp_path: Path) -> None:
    digest_now(alice)
    hour_game_waiting_for(alice, bob)
    django_mail.outbox.clear()
    scheduler = InProcessScheduler(periodic_jobs(), lock_path=tmp_path / "lock", tick_seconds=0.1)

    scheduler.start()
    try:
        wait_until(lambda: len(django_mail.outbox) == 1)
    finally:
        scheduler.stop()
    assert subjects()[0][0] == "alice@example.com"


def test_one_process_of_several_runs_the_jobs_and_another_takes_over(tmp_path: Path) -> None:
    RUNS.clear()
    job = PeriodicJob("count", "tests.periodic_jobs.count_a_run", every_seconds=0.2)
    first = InProcessScheduler([job], lock_path=tmp_path / "lock", tick_seconds=0.05)
    second = InProcessScheduler([job], lock_path=tmp_path / "lock", tick_seconds=0.05)
    first.start()
    wait_until(lambda: first.holds_lock)
    second.start()

    wait_until(lambda: len(RUNS) >= 3)
    assert not second.holds_lock
    first.stop()
    ran_before = len(RUNS)
    wait_until(lambda: second.holds_lock)
    wait_until(lambda: len(RUNS) >= ran_before + 2)
    second.stop()
    # On its schedule: a run every 0.2 s, not one per tick.
    assert len(RUNS) < 40


def test_a_failing_job_does_not_stop_the_others(tmp_path: Path) -> None:
    RUNS.clear()
    broken = PeriodicJob("broken", "tests.periodic_jobs.no_such_job", every_seconds=0.1)
    job = PeriodicJob("count", "tests.periodic_jobs.count_a_run", every_seconds=0.1)
    scheduler = InProcessScheduler([broken, job], lock_path=tmp_path / "lock", tick_seconds=0.05)
    scheduler.start()
    try:
        wait_until(lambda: len(RUNS) >= 2)
    finally:
        scheduler.stop()


def test_a_test_run_never_starts_the_servers_scheduler() -> None:
    assert start_in_process_scheduler() is None


def threads_after_importing(module: str, env: dict[str, str], tmp_path: Path) -> list[str]:
    script = (
        f"import json, threading, {module}\n"
        "print(json.dumps([thread.name for thread in threading.enumerate()]))"
    )
    clean_env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "splendor_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "TMPDIR": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-c", script], env=clean_env | env, cwd=ROOT, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    names: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return names


@pytest.mark.parametrize("entry_point", ["splendor_site.asgi", "splendor_site.wsgi"])
def test_the_server_runs_the_jobs_itself_only_without_a_broker(
    entry_point: str, tmp_path: Path
) -> None:
    assert "periodic-jobs" in threads_after_importing(entry_point, {}, tmp_path)
    with_broker = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert "periodic-jobs" not in threads_after_importing(entry_point, with_broker, tmp_path)
    turned_off = {"PERIODIC_JOBS_IN_PROCESS": "false"}
    assert "periodic-jobs" not in threads_after_importing(entry_point, turned_off, tmp_path)


def test_a_management_command_never_starts_the_scheduler(tmp_path: Path) -> None:
    assert "periodic-jobs" not in threads_after_importing("django.core.management", {}, tmp_path)


def test_periodic_jobs_are_the_beat_schedule() -> None:
    jobs = {job.name: job for job in periodic_jobs()}
    assert set(jobs) == set(settings.CELERY_BEAT_SCHEDULE)
    assert "resend-unsent-mail" in jobs
    assert jobs["send-daily-digests"].every_seconds == timedelta(minutes=10).total_seconds()
