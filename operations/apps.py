from __future__ import annotations

from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """What operators and load balancers ask the site: its health (``/health/``) and the
    heartbeat that shows beat is running."""

    name = "operations"
