"""Finding card ids in anything a viewer receives: the shared tool of the leak tests."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


def walk(value: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON-like structure, depth first; list items have key None."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield None, item
            yield from walk(item)


def card_ids_shown(value: Any) -> set[int]:
    """Every card id the structure reveals: cards spelled out in full, and action payloads."""
    shown: set[int] = set()
    for key, item in walk(value):
        if isinstance(item, Mapping) and {"id", "level", "cost"} <= set(item):
            shown.add(item["id"])
        if key == "card" and isinstance(item, int):
            shown.add(item)
    return shown
