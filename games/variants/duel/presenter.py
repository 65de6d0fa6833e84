"""Splendor Duel's presenter: its words, its table, and what its page remembers between renders."""

from __future__ import annotations

from typing import Any

from games.variants.duel.table import table_for_viewer
from games.variants.duel.words import describe_action

__all__ = ["consequences", "describe_action", "table"]

table = table_for_viewer


def consequences(before: Any, after: Any, seat: int | None) -> list[dict[str, Any]]:
    """Nothing happens by itself in a Duel: every royal, ability and discard is a decision."""
    return []


def remember_turn(memory: Any, data: Any) -> tuple[None, None]:
    """Duel highlights no new cards yet: nothing to remember between renders."""
    return None, None
