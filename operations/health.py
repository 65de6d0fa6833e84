"""The health endpoint (``/health/``, django-health-check): one line per part the site needs,
200 when every part answers, 503 naming the parts that do not.

The parts: PostgreSQL; with ``REDIS_URL``, Redis, a Celery worker for each queue, and beat
(its heartbeat's age); without it, a line saying tasks run in-process (no worker, no beat).
Nothing here shows a URL or a password: checks name their part and, for Redis, its host, port
and database number only. The library logs every failure with its cause.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterator
from typing import Any

import celery
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check.base import HealthCheck
from health_check.checks import Database
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView
from redis.asyncio import Redis as RedisClient
from redis.exceptions import RedisError

from operations.heartbeat import beat_heartbeat_age
from splendor_site.celery import app as celery_app


@dataclasses.dataclass
class CeleryWorkers(Ping):
    """Every queue of ``CELERY_TASK_QUEUES`` has a worker consuming it; a failure names the
    queues without one."""

    app: celery.Celery = dataclasses.field(default=celery_app, repr=False)
    timeout: datetime.timedelta = dataclasses.field(
        default=datetime.timedelta(seconds=1), repr=False
    )

    def check_active_queues(self, *active_workers: str) -> None:
        answers = self.app.control.inspect(list(active_workers), timeout=1).active_queues() or {}
        consumed = {queue.get("name") for queues in answers.values() for queue in queues}
        defined = sorted(queue.name for queue in settings.CELERY_TASK_QUEUES)
        missing = [name for name in defined if name not in consumed]
        if missing:
            raise ServiceUnavailable(f"No worker consumes the queues: {', '.join(missing)}")


@dataclasses.dataclass
class BeatHeartbeat(HealthCheck):
    """Beat's periodic heartbeat task ran lately (``operations.heartbeat``)."""

    async def run(self) -> None:
        try:
            age = await beat_heartbeat_age()
        except RedisError as error:
            raise ServiceUnavailable(
                "Beat's heartbeat cannot be read: Redis does not answer"
            ) from error
        if age is None:
            raise ServiceUnavailable("No heartbeat from beat: is beat running?")
        if age > settings.BEAT_HEARTBEAT_MAX_AGE_SECONDS:
            raise ServiceUnavailable(
                f"Beat's last heartbeat ran {age:.0f} s ago: is beat, or a worker of the "
                f"{settings.CELERY_TASK_DEFAULT_QUEUE!r} queue, down?"
            )


@dataclasses.dataclass
class TasksInProcess(HealthCheck):
    """No broker configured: tasks run in the server process, so no worker or beat to check.
    The line says so (its name and ``mode`` are what the report shows)."""

    mode: str = "no REDIS_URL: tasks run in the server process, no worker or beat"

    async def run(self) -> None:
        return None


class SiteHealthView(HealthCheckView):
    """django-health-check's view over this site's parts, answering 503 (not its 500) when one
    fails, as load balancers expect of a node to take out of rotation."""

    def get_checks(self) -> Iterator[HealthCheck]:
        yield Database()
        if not settings.REDIS_URL:
            yield TasksInProcess()
            return
        url = settings.REDIS_URL
        yield Redis(
            client_factory=lambda: RedisClient.from_url(
                url, socket_timeout=2, socket_connect_timeout=2
            )
        )
        yield CeleryWorkers()
        yield BeatHeartbeat()

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response: HttpResponse = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503
        return response
