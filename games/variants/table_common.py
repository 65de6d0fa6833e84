"""What every game's table builds on, whichever the variant: seat names and region digests."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


def digest(region: Mapping[str, Any]) -> str:
    """A short fingerprint of a region's content: an equal digest means the page shows it."""
    canonical = json.dumps(region, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def seat_names(data: Mapping[str, Any]) -> list[str]:
    """Each seat's name on a page: its player or bot, or "Seat N" while it is open."""
    return [seat["display_name"] or f"Seat {seat['index'] + 1}" for seat in data["seats"]]


def is_over(data: Mapping[str, Any]) -> bool:
    """Whether a game's page data is of a game that ended (finished, or aborted after a start)."""
    return data["status"] in ("finished", "aborted")


def round_number(turn: int, seats: int, *, is_over: bool) -> int:
    """The round a player sees, on the game page and in every list: while the game runs, the
    round being played; once it is over, the last round anyone played (a round completed by
    its last seat is not followed by a round nobody began)."""
    if is_over:
        return max(1, -(-turn // seats))
    return turn // seats + 1
