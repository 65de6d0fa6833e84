"""What the event log says about one game, and the events it says it with.

The fold (``games.records.projection``) makes a ``GameRecord`` of a game's ``Event``s. Plain
values: nothing here touches the database, and a record is never changed, only replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from games import engine
from games.vocabulary import Status

CURRENT_SCHEMA_VERSION = 1
"""The schema of the payloads written now; older ones are upcast on read (``projection.upcast``)."""


@dataclass(frozen=True)
class SeatRecord:
    user_id: int | None = None
    bot_level: str = ""
    display_name: str = ""
    is_away: bool = False
    """A player's seat handed to the greedy bot after two time-outs in a row."""
    timeouts_in_row: int = 0

    @property
    def is_open(self) -> bool:
        """Nobody sits here: no player, with an account or (in an imported game) without one,
        and no bot. Every seat taken has a name."""
        return self.user_id is None and not self.bot_level and not self.display_name

    @property
    def is_played_by_a_person(self) -> bool:
        return self.user_id is not None and not self.is_away


@dataclass(frozen=True)
class GameRecord:
    """Everything the event log says about one game after a number of events."""

    variant: str
    seat_count: int
    options: Mapping[str, Any]
    is_public: bool
    created_by_id: int | None
    seats: tuple[SeatRecord, ...]
    status: str = Status.WAITING
    version: int = 0
    setup: engine.Setup | None = None
    commitment: str = ""
    state: engine.State | None = None
    result: Mapping[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    resigned: tuple[int, ...] = field(default=())
    move_seconds: int | None = None
    turn_version: int = 0
    turn_started_at: datetime | None = None
    origin: Mapping[str, Any] | None = None
    """Set for imported and forked games (``Game.origin``): statistics leave them out."""
    start_position: Mapping[str, Any] | None = None
    """A fork's first position (a public view): its setup is built from it at the start."""

    @property
    def acting_seat(self) -> int | None:
        return seat_to_act(self.status, self.state)

    @property
    def bot_moves_next(self) -> bool:
        """The game waits for a bot's move."""
        seat = self.acting_seat
        return seat is not None and bool(self.seats[seat].bot_level)

    @property
    def turn_deadline(self) -> datetime | None:
        """When the acting player's move is due: only people in games with a time per move."""
        seat = self.acting_seat
        if seat is None or not self.move_seconds or self.turn_started_at is None:
            return None
        if not self.seats[seat].is_played_by_a_person:
            return None
        return self.turn_started_at + timedelta(seconds=self.move_seconds)

    @property
    def reminder_at(self) -> datetime | None:
        """When a quarter of the move's time is left: the reminder mail goes out then."""
        deadline = self.turn_deadline
        if deadline is None or not self.move_seconds:
            return None
        return deadline - timedelta(seconds=self.move_seconds / 4)


def seat_to_act(status: str, state: engine.State | None) -> int | None:
    """The seat a game in ``status`` at ``state`` waits for: none unless it is active."""
    return None if status != Status.ACTIVE or state is None else engine.acting_seat(state)


class Event(NamedTuple):
    """An event as the fold sees it: the stored row's fields, payload already upcast.

    A named tuple rather than a dataclass: a replay makes one per stored row.
    """

    seq: int
    kind: str
    payload: Mapping[str, Any]
    seat: int | None
    created_at: datetime | None
    schema_version: int = CURRENT_SCHEMA_VERSION
    action: engine.Action | None = None
    """An ``ActionTaken`` event's action when the reader parsed it already (``game_events``
    parses each distinct payload once); the fold parses the payload when this is None."""
