"""Who is present in a game right now, the same answer in every server process and worker.

A presence is a mark that lasts a while (``presence_mark``). The game page marks its player when
it loads, and its live-update stream marks them again at every heartbeat for as long as it stays
open (``games.web.live_views``), whether the tab is in front or not; the fallback poll marks them
too. An API request about a game marks its caller for ``API_PRESENCE_SECONDS``.

Where marks live: with ``REDIS_URL``, one Redis hash per (game, user) holding until when the
player is present and when that presence began; without, the ``GamePresence`` row. A mark that
finds the last one lapsed begins a new presence: a return, after which the mail decision
(``notifications.selectors``) allows one more turn mail. With Redis, a page's poll or an API
poll costs no database query.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import redis
from django.conf import settings
from django.db.models import DateTimeField, F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from notifications.models import GamePresence
from splendor_site.redis_clients import bounded_redis

logger = logging.getLogger(__name__)

KEY_PREFIX = "splendor:presence:"
RECORD_SECONDS = 30 * 24 * 3600
"""How long Redis keeps a player's presence record in a game after its last mark."""
REDIS_TIMEOUT_SECONDS = 0.5
"""How long a page or an API request may wait on Redis to mark presence."""

# One round trip, atomic: lengthen the mark, or begin a new one (a return) if it had lapsed.
_MARK = """
local now, upto = tonumber(ARGV[1]), tonumber(ARGV[2])
local was = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if was < now then
  redis.call('HSET', KEYS[1], 'began', ARGV[1], 'until', ARGV[2])
elseif upto > was then
  redis.call('HSET', KEYS[1], 'until', ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return was < now and 1 or 0
"""


@dataclass(frozen=True)
class Presence:
    """A player's presence in a game: until when it lasts, and when it last began."""

    until: datetime | None
    returned_at: datetime | None

    def is_present(self, now: datetime) -> bool:
        return self.until is not None and self.until >= now


def presence_mark(*, user_id: int, game_id: int, seconds: float) -> None:
    """``user_id`` is present in game ``game_id`` for the next ``seconds`` (or longer, if an
    earlier mark said so). Never fails its caller: a Redis that is down is logged."""
    now = timezone.now()
    until = now + timedelta(seconds=seconds)
    if settings.REDIS_URL:
        try:
            _redis().eval(_MARK, 1, _key(user_id, game_id), _ms(now), _ms(until), RECORD_SECONDS)
        except redis.RedisError as error:
            logger.warning("Presence: no mark of user %s in game %s: %s", user_id, game_id, error)
        return
    extended = GamePresence.objects.filter(
        user_id=user_id, game_id=game_id, present_until__gte=now
    ).update(present_until=Greatest(F("present_until"), Value(until, DateTimeField())))
    if not extended:
        GamePresence.objects.bulk_create(
            [GamePresence(user_id=user_id, game_id=game_id, present_until=until, returned_at=now)],
            update_conflicts=True,
            unique_fields=["user", "game"],
            update_fields=["present_until", "returned_at"],
        )


def presence_of(*, user_id: int, game_id: int) -> Presence:
    """The presence of ``user_id`` in ``game_id``. With Redis unreachable: absent, return
    unknown (a mail too many is better than a turn nobody hears of)."""
    if settings.REDIS_URL:
        try:
            until, began = _redis().hmget(_key(user_id, game_id), ["until", "began"])
        except redis.RedisError as error:
            logger.warning("Presence: cannot read user %s in game %s: %s", user_id, game_id, error)
            return Presence(None, None)
        return Presence(_from_ms(until), _from_ms(began))
    found = (
        GamePresence.objects.filter(user_id=user_id, game_id=game_id)
        .values_list("present_until", "returned_at")
        .first()
    )
    return Presence(*found) if found else Presence(None, None)


def _key(user_id: int, game_id: int) -> str:
    return f"{KEY_PREFIX}{game_id}:{user_id}"


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _from_ms(raw: bytes | str | None) -> datetime | None:
    return None if raw is None else datetime.fromtimestamp(int(raw) / 1000, tz=UTC)


def _redis() -> redis.Redis:
    return bounded_redis(REDIS_TIMEOUT_SECONDS)
