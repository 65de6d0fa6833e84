"""The service's own Prometheus metrics, each counted at the one place that does the thing.

django-prometheus counts requests, latencies per view and responses (its middleware); these add
what only the service knows. With ``PROMETHEUS_MULTIPROC_DIR`` set (``./dev stack`` sets it),
every process (uvicorn's workers, the Celery workers) writes its values to files there and the
endpoint (``operations.views.metrics``) adds them up; docs/operations.md lists every metric.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from prometheus_client import Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

EVENTS_COMMITTED = Counter(
    "splendor_events_committed",
    "Events committed to games' logs, by variant and kind (ActionTaken: a move; GameStarted, "
    "GameFinished, GameAborted: games started, finished, aborted).",
    ["variant", "kind"],
)
BOT_TURN_SECONDS = Histogram(
    "splendor_bot_turn_seconds",
    "From the commit that made it a bot's turn (its turn queued) to the bot's move committed.",
    ["queue"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120),
)
PUSH_FAN_OUT_SECONDS = Histogram(
    "splendor_push_fan_out_seconds",
    "Time a commit spends telling every open page of its game (a Redis PUBLISH, or the handing "
    "over to this process's streams without Redis).",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
)
MAILS = Counter(
    "splendor_mails",
    "Mails handed to the mail server (sent), failed and to be tried again (deferred), given up.",
    ["outcome"],
)
LIVE_STREAMS_OPEN = Gauge(
    "splendor_live_streams_open",
    "Live-update streams (open game pages) held now.",
    multiprocess_mode="livesum",
)


DATABASE_QUERY_SECONDS = Histogram(
    "splendor_database_query_seconds",
    "Statements sent through Django's connections, by database alias and outcome (ok, error), "
    "from the call to its result: the round trip and the server's work.",
    ["alias", "outcome"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)


def time_queries_of(connection: BaseDatabaseWrapper, **_: Any) -> None:
    """``connection_created``: time every statement of the new connection (Django's execute
    wrappers see the ORM's and raw cursors' statements alike; the replay's reads through the
    driver's own cursor, ``games.store.driver_reads``, are timed by the requests that make them)."""
    if _time_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_time_query)


def _time_query(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    alias = context["connection"].alias
    started = time.perf_counter()
    outcome = "error"
    try:
        result = execute(sql, params, many, context)
        outcome = "ok"
        return result
    finally:
        DATABASE_QUERY_SECONDS.labels(alias=alias, outcome=outcome).observe(
            time.perf_counter() - started
        )


def events_committed(variant: str, kinds: Iterable[str]) -> None:
    for kind in kinds:
        EVENTS_COMMITTED.labels(variant=variant, kind=kind).inc()


class AnalyticsLag(Collector):
    """Finished games the statistics have not counted yet, read when the endpoint is asked."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from analytics.projections import uncounted_finished_games

        lag = len(uncounted_finished_games(100_000))
        yield GaugeMetricFamily(
            "splendor_analytics_lag_games",
            "Finished games not yet counted by every statistics projection.",
            value=lag,
        )
