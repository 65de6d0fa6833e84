"""What a view leaves unseen, read the same way for both games' determinisation: the cards the
viewer sees are collected, and a reserve hidden from the viewer is kept as its level only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

HIDDEN = -1
"""The card id written for a reserve the viewer cannot see; its level says where to deal from."""


def mark_seen(card: Mapping[str, Any], seen: set[int]) -> int:
    """The id of a card the view shows, added to ``seen``."""
    card_id = int(card["id"])
    seen.add(card_id)
    return card_id


def read_reserves(
    reserved: Iterable[Mapping[str, Any]], seen: set[int], *, is_viewer: bool
) -> tuple[list[int], list[int]]:
    """A player's reserve as ids (``HIDDEN`` where the view hides the card) and, per slot, the
    level of a hidden card (0 where it is shown). The viewer's own reserve hides nothing."""
    ids: list[int] = []
    hidden_levels: list[int] = []
    for card in reserved:
        if card.get("hidden"):
            if is_viewer:
                raise ValueError("a view hides none of its viewer's own reserves")
            ids.append(HIDDEN)
            hidden_levels.append(int(card["level"]))
        else:
            ids.append(mark_seen(card, seen))
            hidden_levels.append(0)
    return ids, hidden_levels
