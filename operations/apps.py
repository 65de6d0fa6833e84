from __future__ import annotations

from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """What operators and load balancers ask the site: its health (``/health/``) and the
    heartbeat that shows beat is running."""

    name = "operations"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from operations import metrics

        connection_created.connect(metrics.time_queries_of, dispatch_uid="operations.metrics")
