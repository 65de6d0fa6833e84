"""The health endpoint (/health/) for load balancers and operators: 200 while the database,
Redis, a worker for every queue and beat all answer; 503 naming the part that does not; never a
password or a URL."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from django.db import connection, connections
from django.test import Client

from operations import heartbeat
from operations.tasks import record_beat_heartbeat
from tests.integration.conftest import StartWorker

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]
T = TypeVar("T")


def in_a_thread(function: Callable[[], T]) -> T:
    """Run ``function`` in a thread of its own, with its own database connection: the health
    checks run asynchronously, and where the browser tests ran first, Playwright keeps an event
    loop running in the main thread, where Django's sync-to-async bridge may not start one."""

    def run() -> T:
        try:
            return function()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result(timeout=60)


def health() -> tuple[int, dict[str, str]]:
    response = in_a_thread(
        lambda: Client(raise_request_exception=False).get("/health/?format=json")
    )
    return response.status_code, response.json()


def failed(report: dict[str, str]) -> dict[str, str]:
    return {part: status for part, status in report.items() if status != "OK"}


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_all_parts_answering_is_200_and_an_old_beat_heartbeat_is_503(
    start_worker: StartWorker, celery_broker: str, settings: Any
) -> None:
    settings.REDIS_URL = celery_broker
    start_worker()
    record_beat_heartbeat.delay()  # as beat sends it; the worker runs it
    deadline = time.monotonic() + 10
    while heartbeat_age() is None:
        assert time.monotonic() < deadline, "the worker never ran the heartbeat"
        time.sleep(0.05)

    healthy_status, healthy = health()
    heartbeat.beat_heartbeat_record(at=time.time() - 10 * settings.BEAT_HEARTBEAT_INTERVAL_SECONDS)
    stale_status, stale = health()

    assert healthy_status == 200, healthy
    assert [part.split("(")[0] for part in healthy] == [
        "Database",
        "Redis",
        "CeleryWorkers",
        "BeatHeartbeat",
    ]
    assert stale_status == 503
    assert list(failed(stale)) == ["BeatHeartbeat()"]
    assert "ran 600 s ago" in stale["BeatHeartbeat()"]


def heartbeat_age() -> float | None:
    from asgiref.sync import async_to_sync

    return in_a_thread(async_to_sync(heartbeat.beat_heartbeat_age))


def test_queues_without_a_worker_are_named(celery_broker: str, settings: Any) -> None:
    settings.REDIS_URL = celery_broker
    heartbeat.beat_heartbeat_record()

    status, report = health()

    assert status == 503
    assert list(failed(report)) == ["CeleryWorkers()"]
    assert "Celery workers unavailable" in report["CeleryWorkers()"]


def test_redis_out_of_reach_is_named_without_its_password(settings: Any) -> None:
    port = closed_port()
    settings.REDIS_URL = f"redis://:hunter2-secret@127.0.0.1:{port}/0"

    response = in_a_thread(
        lambda: Client(raise_request_exception=False).get("/health/?format=json")
    )

    assert response.status_code == 503
    report = response.json()
    assert "Unable to connect to Redis" in report[f"Redis(db=0, host='127.0.0.1', port={port})"]
    assert "Redis does not answer" in report["BeatHeartbeat()"]
    assert "hunter2" not in response.text
    assert "redis://" not in response.text


def test_the_database_out_of_reach_is_named(settings: Any) -> None:
    settings.REDIS_URL = ""
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(closed_port()))
    try:
        status, report = health()
    finally:
        connection.close()
        connection.settings_dict.update(saved)

    assert status == 503
    assert list(failed(report)) == ["Database(alias='default')"]


def test_without_a_broker_it_says_tasks_run_in_process(settings: Any) -> None:
    settings.REDIS_URL = ""

    status, report = health()

    assert status == 200
    assert any(part.startswith("TasksInProcess(mode='no REDIS_URL") for part in report)
