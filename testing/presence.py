"""Forgetting the presence marks Redis keeps, between tests.

Presence marks (``notifications.presence``) live in Redis, which outlives a test database: a
test's game ids may be an earlier test's, so each test starts with nobody present. The site
never forgets marks in bulk (each lapses on its own), so this lives here, not in the app.
"""

from __future__ import annotations

import redis
from django.conf import settings

from notifications.presence import KEY_PREFIX


def forget_presence_marks() -> None:
    """Drop every presence record kept in Redis (none without ``REDIS_URL``)."""
    if not settings.REDIS_URL:
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        for key in client.scan_iter(match=KEY_PREFIX + "*", count=1000):
            client.delete(key)
    finally:
        client.close()
