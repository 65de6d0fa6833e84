"""API token authentication remembered per process for a few seconds.

Looking a token up costs a database round trip on every API request, the largest single step of
an action. A process remembers each token it authenticated for ``API_TOKEN_CACHE_SECONDS``
(default 5; 0 turns the cache off). Revoking a token, or saving or deleting its user (say, to
deactivate them), forgets it at once in the process that does it; every other process stops
accepting it when its entry expires, so a revocation is in force everywhere within that time
(docs/decisions/0088-token-cache.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.conf import settings

from accounts.models import ApiToken

MAX_ENTRIES = 10_000
"""Beyond this many tokens the cache starts afresh: its memory stays bounded."""

clock: Callable[[], float] = time.monotonic
"""Seconds on a clock that only moves forward; tests move it by replacing this."""

_entries: dict[str, tuple[float, ApiToken]] = {}
_lock = threading.Lock()


def lookup(digest: str) -> ApiToken | None:
    """The token remembered under ``digest``, if it has not expired."""
    entry = _entries.get(digest)
    if entry is None:
        return None
    if clock() >= entry[0]:
        with _lock:
            _entries.pop(digest, None)
        return None
    return entry[1]


def remember(digest: str, token: ApiToken) -> None:
    seconds = settings.API_TOKEN_CACHE_SECONDS
    if seconds <= 0:
        return
    with _lock:
        if len(_entries) >= MAX_ENTRIES:
            _entries.clear()
        _entries[digest] = (clock() + seconds, token)


def forget(digest: str) -> None:
    with _lock:
        _entries.pop(digest, None)


def forget_user(user_id: int) -> None:
    """Forget every token of the user: their account changed (deactivated, say, or deleted)."""
    with _lock:
        for digest in [key for key, (_, token) in _entries.items() if token.user_id == user_id]:
            del _entries[digest]


def clear() -> None:
    with _lock:
        _entries.clear()
