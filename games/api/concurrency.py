"""Optimistic concurrency over HTTP: the game's version is its ETag.

``ETag: "<version>"`` on a game and after every change; ``If-None-Match`` on GET answers 304
while the game is unchanged; an action must carry ``If-Match`` with the version it was chosen
at, and may carry an ``Idempotency-Key`` so that a retry cannot play it twice.
"""

from __future__ import annotations

import re

from rest_framework.request import Request
from rest_framework.response import Response

from games.api.errors import InvalidHeader, PreconditionRequired

IDEMPOTENCY_KEY_MAX_LENGTH = 255
ENTITY_TAG_PATTERN = r'^\s*(?:W/)?"(\d{1,9})"\s*$'
"""If-Match: one entity tag holding a version. The schema states the same pattern."""
IDEMPOTENCY_KEY_PATTERN = rf"^[\x21-\x7e]{{1,{IDEMPOTENCY_KEY_MAX_LENGTH}}}$"
"""Idempotency-Key: printable ASCII without spaces. The schema states the same pattern."""
_ENTITY_TAG = re.compile(ENTITY_TAG_PATTERN)
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


def etag_for(version: int) -> str:
    return f'"{version}"'


def with_etag(response: Response, version: int) -> Response:
    response["ETag"] = etag_for(version)
    return response


def is_unchanged_for(request: Request, version: int) -> bool:
    """True when the client's If-None-Match already names ``version`` (or is ``*``)."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    if header.strip() == "*":
        return True
    wanted = etag_for(version)
    return any(tag.strip().removeprefix("W/") == wanted for tag in header.split(","))


def expected_version_from(request: Request) -> int:
    """The version named by the required If-Match header (one entity tag, as sent by ETag)."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        raise PreconditionRequired()
    match = _ENTITY_TAG.match(header)
    if match is None:
        raise InvalidHeader(
            "If-Match", 'If-Match must be one entity tag as given by the game\'s ETag, e.g. "12".'
        )
    return int(match.group(1))


def idempotency_key_from(request: Request) -> str | None:
    """The optional Idempotency-Key: 1 to 255 printable ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _IDEMPOTENCY_KEY.match(key):
        raise InvalidHeader(
            "Idempotency-Key",
            f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII "
            "characters without spaces.",
        )
    return key
