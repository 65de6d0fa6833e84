"""The filters every statistic takes, read from a query string: bad values are refused.

``variant`` (a known variant), ``players`` (2–4), ``bots`` ("humans": games of people only;
"bots": games with at least one bot), ``since`` and ``until`` (ISO dates, UTC days, inclusive).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import date
from urllib.parse import urlencode

from analytics.variants import known_variants

PLAYER_COUNTS = (2, 3, 4)
BOTS_CHOICES = ("humans", "bots")


class InvalidFilter(ValueError):
    """A filter value that means nothing: the message says which and why."""


@dataclass(frozen=True)
class StatsFilter:
    variant: str = ""
    players: int | None = None
    bots: str = ""
    since: date | None = None
    until: date | None = None

    def to_params(self) -> dict[str, str]:
        params = {}
        for field in fields(self):
            value = getattr(self, field.name)
            if value not in (None, ""):
                params[field.name] = value.isoformat() if isinstance(value, date) else str(value)
        return params

    def query_string(self) -> str:
        return urlencode(self.to_params())

    def with_(self, **changes: object) -> StatsFilter:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def is_empty(self) -> bool:
        return not self.to_params()


def parse_filter(params: Mapping[str, str]) -> StatsFilter:
    variant = params.get("variant", "").strip()
    if variant and variant not in known_variants():
        raise InvalidFilter(f"variant must be one of: {', '.join(known_variants())}.")
    players_text = params.get("players", "").strip()
    players = None
    if players_text:
        if players_text not in {str(count) for count in PLAYER_COUNTS}:
            raise InvalidFilter("players must be 2, 3 or 4.")
        players = int(players_text)
    bots = params.get("bots", "").strip()
    if bots and bots not in BOTS_CHOICES:
        raise InvalidFilter('bots must be "humans" (no bots) or "bots" (with bots).')
    since, until = _date(params, "since"), _date(params, "until")
    if since and until and since > until:
        raise InvalidFilter("since must not be after until.")
    return StatsFilter(variant, players, bots, since, until)


def _date(params: Mapping[str, str], name: str) -> date | None:
    text = params.get(name, "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidFilter(f"{name} must be a date written YYYY-MM-DD.") from None
