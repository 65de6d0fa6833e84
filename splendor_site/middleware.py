"""Site-wide guards that run before any view reads the request."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games.api.errors import request_too_large_body


class RequestBodyLimitMiddleware:
    """Refuse a body longer than ``REQUEST_BODY_MAX_BYTES`` with 413, before it is read.

    Goes by Content-Length, which every body Django reads has (without one, Django reads an
    empty body); the API's parser bounds what it reads as well. The API answers in its error
    shape, pages with the site's error page.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        max_bytes: int = settings.REQUEST_BODY_MAX_BYTES
        if _declared_length(request) > max_bytes:
            return _too_large(request, max_bytes)
        return self.get_response(request)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads such a body as empty


def _too_large(request: HttpRequest, max_bytes: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(request_too_large_body(max_bytes), status=413)
    message = f"What you sent is too large: the site reads at most {max_bytes // 1024} KiB."
    return render(request, "error.html", {"message": message, "status": 413}, status=413)
