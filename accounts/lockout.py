"""How django-axes counts, names and answers a failed sign-in: what locks (``AXES_HANDLER``),
the username it records (``AXES_USERNAME_CALLABLE``), the page shown while sign-ins are refused
(``AXES_LOCKOUT_CALLABLE``), and the lift a password reset gives."""

from __future__ import annotations

import math
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
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


class PairOrSprayingAddressHandler(AxesDatabaseHandler):
    """Axes's database handler, locking a (username, address) pair, or an address alone once it
    has failed for many usernames.

    ``AXES_LOCKOUT_PARAMETERS`` is the pair, so a stranger's wrong passwords for ``eve`` from
    their own address never lock eve out where she signs in. An address is locked whole when,
    within the cool-off, it failed for ``LOGIN_ADDRESS_USERNAME_LIMIT`` distinct usernames:
    guessing across accounts costs the guesser their address, not the accounts their owners.
    """

    def get_failures(self, request: HttpRequest, credentials: Any = None) -> int:
        failures_of_pair = int(super().get_failures(request, credentials))
        if self._is_spraying_address(request):
            # Axes compares this count with its limit; the address's lock is the limit reached.
            return max(failures_of_pair, get_failure_limit(request, credentials))
        return failures_of_pair

    @staticmethod
    def _is_spraying_address(request: HttpRequest) -> bool:
        usernames_tried = (
            AccessAttempt.objects.filter(
                ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
                attempt_time__gte=get_cool_off_threshold(request),
            )
            .values("username")
            .distinct()
            .count()
        )
        return usernames_tried >= settings.LOGIN_ADDRESS_USERNAME_LIMIT


def lift_lock_out_of(username: str) -> None:
    """Forget the failed sign-ins for ``username`` from every address: whoever just proved
    they own the account (a password reset) signs in at once. An address locked for spraying
    usernames stays locked."""
    axes_reset(username=username)
