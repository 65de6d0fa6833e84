"""What one event changes in a game's record, and the events no game can contain.

One function per kind of event; ``changed_fields`` picks it. Lobby events (a seat taken, left, given
to a bot; the start, a resignation, the end) are checked against the seats and the status as
the engine checks an action against the state, and refused with ``ImpossibleEvent``
(docs/decisions/0123-fold-refuses-impossible-events.md). Nothing here touches the database; the
fold (``games.records.projection``) applies what these return.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from games import engine
from games.records.record import Event, GameRecord, SeatRecord
from games.vocabulary import EventKind, Status


class ImpossibleEvent(ValueError):
    """An event no game can contain: a seat taken twice, a player seated twice, a start with an
    open seat, a finish before the start. The fold refuses it as the engine refuses an illegal
    action, so the writer appends nothing and a replay names the event (``seq``, ``kind``)."""

    def __init__(self, event: Event, reason: str) -> None:
        super().__init__(f"seq {event.seq} ({event.kind}): {reason}")
        self.seq, self.kind, self.reason = event.seq, event.kind, reason


def changed_fields(record: GameRecord, event: Event) -> dict[str, Any]:
    """The fields ``event`` changes in ``record``, with their new values."""
    change = _CHANGES.get(event.kind)
    if change is None:
        raise ValueError(f"unknown event kind {event.kind!r}")
    return change(record, event)


def _game_created(record: GameRecord, event: Event) -> dict[str, Any]:
    raise ImpossibleEvent(event, "a game is created once, by its first event")


def _seat_taken(record: GameRecord, event: Event) -> dict[str, Any]:
    index = _open_seat(record, event)
    user = event.payload["user"]
    if user is not None and any(taken.user_id == user for taken in record.seats):
        raise ImpossibleEvent(event, f"user {user} already has a seat in this game")
    seat = SeatRecord(user_id=user, display_name=event.payload["display_name"])
    return {"seats": _with_seat(record.seats, index, seat)}


def _bot_added(record: GameRecord, event: Event) -> dict[str, Any]:
    index = _open_seat(record, event)
    seat = SeatRecord(bot_level=event.payload["level"], display_name=event.payload["display_name"])
    return {"seats": _with_seat(record.seats, index, seat)}


def _seat_left(record: GameRecord, event: Event) -> dict[str, Any]:
    _require_status(record, event, Status.WAITING)
    index = _seat_index(record, event)
    if record.seats[index].is_open:
        raise ImpossibleEvent(event, f"seat {index} is empty")
    return {"seats": _with_seat(record.seats, index, SeatRecord())}


def _game_started(record: GameRecord, event: Event) -> dict[str, Any]:
    _require_status(record, event, Status.WAITING)
    open_seats = [index for index, seat in enumerate(record.seats) if seat.is_open]
    if open_seats:
        raise ImpossibleEvent(event, f"seat {open_seats[0]} is open")
    setup = engine.setup_from_json(event.payload["setup"])
    return {
        "status": Status.ACTIVE,
        "setup": setup,
        "commitment": event.payload["commitment"],
        "state": engine.initial_state(setup),
        "started_at": event.created_at,
    }


def _action_taken(record: GameRecord, event: Event) -> dict[str, Any]:
    _require_status(record, event, Status.ACTIVE)
    assert record.state is not None
    action = event.action
    if action is None:
        action = engine.action_from_json(event.payload["action"], record.variant)
    changes: dict[str, Any] = {"state": engine.apply_action(record.state, action)}
    if event.seat is not None and not event.payload.get("on_time_out"):
        # A move the player made themselves ends a run of time-outs.
        seat = record.seats[event.seat]
        if seat.timeouts_in_row:
            seat = replace(seat, timeouts_in_row=0)
            changes["seats"] = _with_seat(record.seats, event.seat, seat)
    return changes


def _deadline_event(record: GameRecord, event: Event) -> dict[str, Any]:
    """Time-outs and the seat handed to the bot and back (docs/decisions/0109-turn-deadlines.md)."""
    _require_status(record, event, Status.ACTIVE)
    index = _seat_index(record, event)
    seat = record.seats[index]
    if event.kind == EventKind.SEAT_RECLAIMED and not seat.is_away:
        raise ImpossibleEvent(event, f"seat {index} is not handed to the bot")
    if event.kind == EventKind.TURN_TIMED_OUT:
        seat = replace(seat, timeouts_in_row=seat.timeouts_in_row + 1)
    elif event.kind == EventKind.SEAT_HANDED_TO_BOT:
        seat = replace(seat, is_away=True, timeouts_in_row=0)
    else:
        seat = replace(seat, is_away=False, timeouts_in_row=0)
    return {"seats": _with_seat(record.seats, index, seat)}


def _player_resigned(record: GameRecord, event: Event) -> dict[str, Any]:
    _require_status(record, event, Status.ACTIVE)
    index = _seat_index(record, event)
    if index in record.resigned:
        raise ImpossibleEvent(event, f"seat {index} has resigned already")
    return {"resigned": (*record.resigned, index)}


def _game_finished(record: GameRecord, event: Event) -> dict[str, Any]:
    _require_status(record, event, Status.ACTIVE)
    return {
        "status": Status.FINISHED,
        "result": event.payload["result"],
        "finished_at": event.created_at,
    }


def _game_aborted(record: GameRecord, event: Event) -> dict[str, Any]:
    if record.status not in (Status.WAITING, Status.ACTIVE):
        raise ImpossibleEvent(event, f"the game is {record.status} already")
    return {
        "status": Status.ABORTED,
        "result": {"aborted": True, "reason": event.payload.get("reason", "")},
        "finished_at": event.created_at,
    }


_CHANGES: dict[str, Callable[[GameRecord, Event], dict[str, Any]]] = {
    EventKind.GAME_CREATED: _game_created,
    EventKind.SEAT_TAKEN: _seat_taken,
    EventKind.BOT_ADDED: _bot_added,
    EventKind.SEAT_LEFT: _seat_left,
    EventKind.GAME_STARTED: _game_started,
    EventKind.ACTION_TAKEN: _action_taken,
    EventKind.TURN_TIMED_OUT: _deadline_event,
    EventKind.SEAT_HANDED_TO_BOT: _deadline_event,
    EventKind.SEAT_RECLAIMED: _deadline_event,
    EventKind.PLAYER_RESIGNED: _player_resigned,
    EventKind.GAME_FINISHED: _game_finished,
    EventKind.GAME_ABORTED: _game_aborted,
}
"""Every kind of event the log holds, and what it changes."""


def _require_status(record: GameRecord, event: Event, status: str) -> None:
    if record.status != status:
        raise ImpossibleEvent(event, f"the game is {record.status}, not {status}")


def _seat_index(record: GameRecord, event: Event) -> int:
    """The seat the event's payload names, which must be one of the game's."""
    index = event.payload["seat"]
    if type(index) is not int or not 0 <= index < record.seat_count:
        raise ImpossibleEvent(event, f"the game has no seat {index!r}")
    return index


def _open_seat(record: GameRecord, event: Event) -> int:
    """The seat a player or a bot sits in: open, in a game not started yet."""
    _require_status(record, event, Status.WAITING)
    index = _seat_index(record, event)
    if not record.seats[index].is_open:
        raise ImpossibleEvent(event, f"seat {index} is taken already")
    return index


def _with_seat(
    seats: tuple[SeatRecord, ...], index: int, seat: SeatRecord
) -> tuple[SeatRecord, ...]:
    return (*seats[:index], seat, *seats[index + 1 :])
