"""What the site answers while PostgreSQL is out of reach: 503 with ``Retry-After``, never a
server error. JSON in the API's error shape under /api/, a plain page elsewhere.

Django sends every uncaught exception (from a view or from a middleware, such as the session's
or the user's lookup) to ``handler500``, which is ``server_error`` here; the API's exception
handler asks ``is_database_unreachable`` too. Nothing needs restarting afterwards: Django drops
a connection that failed and opens a new one on the next request.

Only a failure to reach the database counts, never a query's own error: a deadlock, a statement
timeout, an unknown column or a constraint stay what they are (a 409, a 500...). DEBUG shows
Django's technical page instead, as for any error.
"""

from __future__ import annotations

import sys

import psycopg
from django import db
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults

RETRY_AFTER_SECONDS = 5
MESSAGE = "The database cannot be reached just now; try again in a few seconds."

_UNAVAILABLE_SQLSTATES = {
    "53300",  # too_many_connections
    "57P01",  # admin_shutdown
    "57P02",  # crash_shutdown
    "57P03",  # cannot_connect_now (starting up or shutting down)
}
"""Errors the server sends when it will not serve: its own outage, not the query's fault."""


def is_database_unreachable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says PostgreSQL could not be reached or dropped the connection: no
    connection at all (refused, timed out, closed under us: the driver's errors without an
    SQLSTATE), a connection exception (class 08), or a server refusing to serve."""
    if not isinstance(exc, db.OperationalError | db.InterfaceError):
        return False
    cause = exc.__cause__
    if not isinstance(cause, psycopg.OperationalError | psycopg.InterfaceError):
        return False
    sqlstate = cause.sqlstate
    return sqlstate is None or sqlstate.startswith("08") or sqlstate in _UNAVAILABLE_SQLSTATES


def database_unreachable_response(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: the API's error shape, or a page that needs no database."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        body = {"error": {"code": "service_unavailable", "message": MESSAGE, "details": {}}}
        response = JsonResponse(body, status=503)
    else:
        # No request context: its processors would ask the database who the user is.
        page = loader.get_template("503.html").render({"message": MESSAGE})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: Django's own 500 page, unless the error is the database being away."""
    if is_database_unreachable(sys.exc_info()[1]):
        return database_unreachable_response(request)
    return defaults.server_error(request)
