"""Splendor Duel's presenter: its words, its table and its rounds (two turns to a round)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.variants.duel_table import table_for_viewer
from games.variants.duel_words import describe_action

__all__ = ["consequences", "describe_action", "rounds", "table"]

table = table_for_viewer


def consequences(before: Any, after: Any, seat: int | None) -> list[dict[str, Any]]:
    """Nothing happens by itself in a Duel: every royal, ability and discard is a decision."""
    return []


def rounds(view: Mapping[str, Any]) -> int:
    """Rounds begun, two turns each; a game that ended mid-round counts the round it was in."""
    return -(-int(view["turn"]) // 2)
