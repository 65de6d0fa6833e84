"""Site-wide guards that run before any view reads the request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

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
        length = _declared_length(request)
        if length > settings.REQUEST_BODY_MAX_BYTES:
            max_bytes = max_body_bytes_for(request.path_info)
            if length > max_bytes:
                return _too_large(request, max_bytes)
        return self.get_response(request)


View = TypeVar("View")


def allows_body_up_to(max_bytes: int) -> Callable[[View], View]:
    """Marks a view (function, or class: set ``max_body_bytes``) that reads larger bodies,
    such as a game file to import; every other view gets ``REQUEST_BODY_MAX_BYTES``."""

    def mark(view: View) -> View:
        view.max_body_bytes = max_bytes  # type: ignore[attr-defined]
        return view

    return mark


def max_body_bytes_for(path: str) -> int:
    """The most a request to ``path`` may send: its view's allowance, or the site's limit."""
    try:
        view: Any = resolve(path).func
    except Resolver404:
        return int(settings.REQUEST_BODY_MAX_BYTES)
    view = getattr(view, "view_class", view)
    return int(getattr(view, "max_body_bytes", settings.REQUEST_BODY_MAX_BYTES))


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
