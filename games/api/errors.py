"""The API's one error shape and the one place that produces it.

Every error response under /api/ is ``{"error": {"code", "message", "details"}}``: refusals of
the services (``games.errors`` and ``accounts.errors``, translated by code), DRF's own
exceptions, unknown URLs and unexpected failures alike.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import SuspiciousOperation
from django.core.signals import got_request_exception
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from accounts.errors import AccountError
from games.api.parsers import RequestTooLarge
from games.errors import GameError, StaleVersion
from splendor_site import outages

logger = logging.getLogger(__name__)

CODE_BY_DRF_CODE: Mapping[str, str] = {
    "invalid": "validation_error",
    "permission_denied": "forbidden",
}
"""DRF's default codes, renamed where ours say the same thing in the services' words."""


class PreconditionRequired(exceptions.APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_code = "precondition_required"
    default_detail = "Send If-Match with the game's ETag, as returned by GET on the game."


class InvalidHeader(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid_header"

    def __init__(self, header: str, message: str) -> None:
        super().__init__(message)
        self.header = header


def request_too_large_body(max_bytes: int) -> dict[str, Any]:
    """The error body of a 413, for the middleware that answers before DRF sees the request."""
    exc = RequestTooLarge(max_bytes)
    return error_body(exc.default_code, str(exc.detail), {"max_bytes": max_bytes})


def error_body(code: str, message: str, details: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": dict(details or {})}}


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: every exception a view raises becomes the one error shape."""
    if isinstance(exc, GameError | AccountError):
        return _service_refusal(exc, context)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    elif isinstance(exc, SuspiciousOperation):
        # A request Django refuses to read (more query fields than DATA_UPLOAD_MAX_NUMBER_FIELDS,
        # say): the client's fault, told as such, never a server error.
        exc = exceptions.ParseError(f"The request could not be read: {exc}")
    if not isinstance(exc, exceptions.APIException):
        if outages.is_database_unreachable(exc):
            return _database_unreachable(exc, context)
        return _server_error(exc, context)
    response = drf_exception_handler(exc, context)
    assert response is not None
    code, message, details = _describe_drf_exception(exc)
    response.data = error_body(code, message, details)
    return response


@csrf_exempt  # a 404 changes nothing, and the API answers in JSON, never with a CSRF page
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown URLs under /api/: the same JSON 404 as every other API error."""
    message = f"There is no API endpoint at {request.path}."
    if not request.path.endswith("/") and _resolves(request.path + "/"):
        message += f" Did you mean {request.path}/ (with the trailing slash)?"
    return JsonResponse(error_body("not_found", message), status=status.HTTP_404_NOT_FOUND)


def _service_refusal(exc: GameError | AccountError, context: Mapping[str, Any]) -> Response:
    http_status = exc.http_status
    view = context.get("view")
    if isinstance(exc, StaleVersion) and getattr(view, "version_from_if_match", False):
        # The client's If-Match named an older version: an HTTP precondition that failed.
        http_status = status.HTTP_412_PRECONDITION_FAILED
    if exc.code == "invalid_request":
        # A view whose only refusals of this kind are about the request itself (not about the
        # game's present status) says so; the default is 409 Conflict.
        http_status = getattr(view, "invalid_request_status", http_status)
    set_rollback()
    headers = {}
    if isinstance(exc, StaleVersion):
        headers["ETag"] = f'"{exc.current_version}"'
    return Response(
        error_body(exc.code, exc.message, exc.details), status=http_status, headers=headers
    )


def _describe_drf_exception(exc: exceptions.APIException) -> tuple[str, str, dict[str, Any]]:
    default_code = getattr(exc, "default_code", "error")
    code = CODE_BY_DRF_CODE.get(default_code, default_code)
    detail = exc.detail
    if isinstance(exc, exceptions.ValidationError):
        fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        return code, "The request is not valid: see details.fields.", {"fields": fields}
    details: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        details["retry_after_seconds"] = math.ceil(exc.wait)
    if isinstance(exc, InvalidHeader):
        details["header"] = exc.header
    if isinstance(exc, RequestTooLarge):
        details["max_bytes"] = exc.max_bytes
    return code, str(detail), details


def _server_error(exc: Exception, context: Mapping[str, Any]) -> Response:
    request = context.get("request")
    logger.error("Unexpected error in %s", type(context.get("view")).__name__, exc_info=exc)
    # Error reporters (and Django's test client) listen for this, as for any uncaught error.
    got_request_exception.send(sender=None, request=getattr(request, "_request", request))
    set_rollback()
    return Response(
        error_body("server_error", "Something went wrong on our side; it has been logged."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _database_unreachable(exc: Exception, context: Mapping[str, Any]) -> Response:
    logger.warning("The database could not be reached: %s", exc)
    set_rollback()
    return Response(
        error_body("service_unavailable", outages.MESSAGE),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(outages.RETRY_AFTER_SECONDS)},
    )


def _resolves(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return match.func is not api_not_found
