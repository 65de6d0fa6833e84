"""How large a body each view may receive: a mark the views set, which the site's body-limit
middleware reads before any view runs.

It sits apart from the middleware so that the views that raise their limit (a game file to
import) mark themselves without importing the site's middleware from below it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.urls import Resolver404, resolve

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
