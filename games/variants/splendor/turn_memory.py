"""Which face-up cards are new to a player: what they saw when their turn last came round.

A Splendor page marks the cards dealt since the viewer's previous turn. The memory lives in the
viewer's session, so it is theirs alone and costs the database nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Memory:
    """What the viewer saw when their turn last came round, kept in their session.

    ``board`` is the face-up cards at the start of their latest turn, ``before`` those at the
    start of the turn before it: new cards are measured against the start of the viewer's
    previous turn while they play, and against their latest turn while they wait.
    """

    turn: int
    board: tuple[int, ...]
    before: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "board": list(self.board),
            "before": None if self.before is None else list(self.before),
        }

    @classmethod
    def from_json(cls, data: Any) -> Memory | None:
        try:
            before = data["before"]
            return cls(
                int(data["turn"]),
                tuple(map(int, data["board"])),
                None if before is None else tuple(map(int, before)),
            )
        except (KeyError, TypeError, ValueError):
            return None


def remember_turn(
    memory: Memory | None, data: Mapping[str, Any]
) -> tuple[Memory | None, set[int] | None]:
    """The updated memory for this render, and the face-up cards the viewer has already seen.

    None instead of a set means "highlight nothing": a spectator, a game not in progress, or a
    player seen for the first time.
    """
    state = data.get("state")
    if state is None or data.get("viewer_seat") is None or data["status"] != "active":
        return memory, None
    board = tuple(card["id"] for row in state["board"] for card in row if card)
    is_my_turn = state["current"] == data["viewer_seat"]
    if is_my_turn and state["phase"] == "main" and (memory is None or memory.turn != state["turn"]):
        memory = Memory(state["turn"], board, memory.board if memory else None)
    if memory is None:
        return None, None
    seen = memory.before if is_my_turn else memory.board
    return memory, None if seen is None else set(seen)


def remember_turn_in_session(
    memory: Any, data: Mapping[str, Any]
) -> tuple[Memory | None, set[int] | None]:
    """:func:`remember_turn` of the memory as the session keeps it (``Memory.to_json``)."""
    return remember_turn(Memory.from_json(memory), data)
