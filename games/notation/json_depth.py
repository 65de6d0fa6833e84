"""How deep a parsed JSON value nests, measured without recursion.

Shared by the API's JSON reader and the game-file reader: each refuses a value nested past
its limit before any serializer, service or ``json.dumps`` walks it recursively.
"""

from __future__ import annotations

from typing import Any


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests arrays and objects more than ``limit`` deep (without recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False
