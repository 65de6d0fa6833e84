"""The base game's presenter: its words, the noble's automatic visit and its table."""

from __future__ import annotations

from typing import Any

from games import engine
from games.variants.splendor.describe import describe_action
from games.variants.splendor.table import table_for_viewer

__all__ = ["consequences", "describe_action", "table"]

table = table_for_viewer


def consequences(before: Any, after: Any, seat: int | None) -> list[dict[str, Any]]:
    """A noble who visited ``seat`` without being chosen (the rules' automatic visit).

    A chosen noble is the ``choose_noble`` action's own words, so it is not repeated here.
    """
    if seat is None or before is None or after is None:
        return []
    had = set(before.players[seat].nobles)
    visits = [noble for noble in after.players[seat].nobles if noble not in had]
    if not visits or before.phase == "choose_noble":
        return []
    return [
        {
            "kind": "noble_visit",
            "seat": seat,
            "noble": noble,
            "points": engine.noble_json(noble)["points"],
        }
        for noble in visits
    ]
