"""The metrics endpoint: Prometheus's text format, only for who holds ``METRICS_TOKEN``.

Unset (the default), the endpoint answers 404 like any unknown address: metrics name views,
queues and volumes an outsider has no business reading. Prometheus sends the token as
``Authorization: Bearer <token>`` (its ``authorization`` scrape setting).
"""

from __future__ import annotations

import hmac
import os

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from operations.metrics import AnalyticsLag


def metrics(request: HttpRequest) -> HttpResponse:
    expected = settings.METRICS_TOKEN
    if not expected:
        raise Http404
    offered = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(offered.encode(), expected.encode()):
        response = HttpResponse("A valid metrics token is required.\n", status=401)
        response["WWW-Authenticate"] = "Bearer"
        return response
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Every process's values, from their files; this process's own registry would hold
        # only what it counted itself.
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    lag = CollectorRegistry()
    lag.register(AnalyticsLag())
    body = generate_latest(registry) + generate_latest(lag)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
