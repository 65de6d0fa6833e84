"""The page shown while django-axes refuses sign-ins (``AXES_LOCKOUT_CALLABLE``)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """429 with a page that says why, for how long, and what to do meanwhile."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60),
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
