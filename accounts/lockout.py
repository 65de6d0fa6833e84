"""How django-axes names and answers a failed sign-in: the username it records
(``AXES_USERNAME_CALLABLE``) and the page shown while sign-ins are refused
(``AXES_LOCKOUT_CALLABLE``)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

RECORDED_USERNAME_LENGTH = 255
"""The width of axes's username column; the sign-in form itself does not bound the field."""


def username_for_axes(request: HttpRequest, credentials: Any = None) -> str | None:
    """The username tried, as axes records and counts it: cut to its column, without NULs.

    Axes stores whatever was typed; 5,000 characters made the insert fail (a server error).
    No real username is that long (150 at most), so the cut merges nothing that exists.
    """
    username = (credentials or {}).get("username")
    if username is None:
        username = request.POST.get("username")
    if username is None:
        return None
    return str(username).replace("\x00", "")[:RECORDED_USERNAME_LENGTH]


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
