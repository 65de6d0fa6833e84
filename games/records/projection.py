"""Folding a game's events into what the game is now: the one definition of every read model.

The services fold each event they append with :func:`evolve` to know what to write to the read
models, and ``verify_games``/``rebuild_read_models`` fold the whole log the same way, so the
rows and the log cannot disagree without the check seeing it. Nothing here touches the database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from games import engine
from games.vocabulary import EventKind, Status

CURRENT_SCHEMA_VERSION = 1


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
        return _acting_seat(self.status, self.state)

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


_RECORD_FIELDS = frozenset(field.name for field in fields(GameRecord))
_ACTION_TAKEN = EventKind.ACTION_TAKEN.value
"""The kind as a plain string: reading a ``StrEnum`` member costs about 0.3 µs each time."""


def _acting_seat(status: str, state: engine.State | None) -> int | None:
    return None if status != Status.ACTIVE or state is None else engine.acting_seat(state)


class ImpossibleEvent(ValueError):
    """An event no game can contain: a seat taken twice, a player seated twice, a start with an
    open seat, a finish before the start. The fold refuses it as the engine refuses an illegal
    action, so the writer appends nothing and a replay names the event (``seq``, ``kind``)."""

    def __init__(self, event: Event, reason: str) -> None:
        super().__init__(f"seq {event.seq} ({event.kind}): {reason}")
        self.seq, self.kind, self.reason = event.seq, event.kind, reason


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


def commitment_for(setup_json: Mapping[str, Any], salt: str) -> str:
    """SHA-256 over the setup and a random salt, in canonical JSON.

    Published when the game starts; once it ends the setup and salt are revealed, so anyone can
    recompute it and see the shuffle was fixed before the first move.
    """
    canonical = json.dumps(
        {"setup": setup_json, "salt": salt}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def upcast(kind: str, schema_version: int, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """Bring an old payload to the current schema on read; stored rows are never rewritten.

    Every payload is still at version 1, so there is nothing to convert yet; a later schema
    change adds its conversion here, keyed by kind and version.
    """
    if schema_version != CURRENT_SCHEMA_VERSION:
        raise ValueError(f"no upcaster from schema {schema_version} for {kind} events")
    return payload


def replay(events: Iterable[Event], *, checked: bool = False) -> GameRecord:
    """The game after all of ``events``, which must start with ``GameCreated`` at seq 1.

    Every recorded action was checked by the engine before it was appended (``evolve`` in the
    writer), so by default a run of actions is folded through the engine's trusted path
    (``apply_legal``) straight into a state, and the record is rebuilt once per run instead of
    once per event (``_fold_actions``). ``checked=True`` takes every event through ``evolve``,
    which checks every action again, as ``verify_games`` does.
    """
    record: GameRecord | None = None
    pending: Iterator[Event] = iter(events)
    for event in pending:
        record = evolve(record, event)
        while not checked and record.status == Status.ACTIVE and record.state is not None:
            record, stopped_at = _fold_actions(record, pending)
            if stopped_at is None:
                return record
            record = evolve(record, stopped_at)
    if record is None:
        raise ValueError("a game has at least its GameCreated event")
    return record


def _fold_actions(record: GameRecord, events: Iterator[Event]) -> tuple[GameRecord, Event | None]:
    """The actions at the head of ``events`` folded into ``record``'s state, with the move clock
    kept as ``evolve`` keeps it; returns the record and the first event not taken (None at the
    end). A player's own action that ends their run of time-outs changes their seat: it stops
    the run, to go through ``evolve``.
    """
    assert record.state is not None
    state, variant, version = record.state, record.variant, record.version
    acting, turn_version, turn_started_at = (
        record.acting_seat,
        record.turn_version,
        record.turn_started_at,
    )
    timed_out = {index for index, seat in enumerate(record.seats) if seat.timeouts_in_row}
    apply_legal, acting_seat = engine.apply_legal, engine.acting_seat
    action_taken = _ACTION_TAKEN  # a local: the loop below runs once per action of the game
    stopped_at = None
    for event in events:
        seq, kind, payload, seat, created_at, _schema, action = event
        if kind != action_taken or (seat in timed_out and not payload.get("on_time_out")):
            stopped_at = event
            break
        if seq != version + 1:
            raise ValueError(f"event seq {seq} does not follow version {version}")
        if action is None:
            action = engine.action_from_json(payload["action"], variant)
        state = apply_legal(state, action)
        version = seq
        now_acting = acting_seat(state)
        if now_acting is not None and now_acting != acting:
            turn_version, turn_started_at = seq, created_at
        acting = now_acting
    changes = {
        "version": version,
        "state": state,
        "turn_version": turn_version,
        "turn_started_at": turn_started_at,
    }
    return _updated(record, changes), stopped_at


def evolve(record: GameRecord | None, event: Event) -> GameRecord:
    """The game after one more event.

    An event no game can contain is refused with ``ImpossibleEvent``
    (docs/decisions/0123-fold-refuses-impossible-events.md): lobby events are checked against the
    seats and the status as the engine checks an action against the state, on the write path
    (the writer folds before it inserts) and on every replay."""
    payload = event.payload
    if record is None:
        if event.kind != EventKind.GAME_CREATED:
            raise ValueError(f"the first event must be GameCreated, not {event.kind}")
        return GameRecord(
            variant=payload["variant"],
            seat_count=payload["seat_count"],
            options=payload.get("options", {}),
            is_public=payload.get("is_public", True),
            created_by_id=payload.get("created_by"),
            seats=(SeatRecord(),) * payload["seat_count"],
            version=event.seq,
            created_at=event.created_at,
            move_seconds=payload.get("move_seconds"),
            origin=payload.get("origin"),
            start_position=payload.get("position"),
        )
    if event.seq != record.version + 1:
        raise ValueError(f"event seq {event.seq} does not follow version {record.version}")
    changes = _changes(record, event)
    changes["version"] = event.seq
    # One copy of the record per event: the fold makes one per event of every replay.
    acting_after = _acting_seat(
        changes.get("status", record.status), changes.get("state", record.state)
    )
    reclaimed_own_turn = (
        event.kind == EventKind.SEAT_RECLAIMED and event.payload["seat"] == acting_after
    )
    if acting_after is not None and (
        acting_after != record.acting_seat
        or event.kind == EventKind.GAME_STARTED
        or reclaimed_own_turn
    ):
        # The clock of a move starts when the turn reaches a seat; a player's own follow-up
        # decisions (giving back tokens, choosing a noble) run on the same clock.
        changes["turn_version"], changes["turn_started_at"] = event.seq, event.created_at
    return _updated(record, changes)


def _updated(record: GameRecord, changes: Mapping[str, Any]) -> GameRecord:
    """``dataclasses.replace(record, **changes)`` for a tenth of its cost (about 1 µs, not 10):
    ``replace`` calls the generated ``__init__``, which sets all twenty-odd fields one by one,
    and the fold makes a copy per event. ``GameRecord`` has no ``__post_init__``, no slots and
    no cached properties, so a copy of its fields is the same record."""
    if not changes.keys() <= _RECORD_FIELDS:
        raise TypeError(f"GameRecord has no field {sorted(changes.keys() - _RECORD_FIELDS)[0]}")
    updated = object.__new__(GameRecord)
    values = updated.__dict__
    values.update(record.__dict__)
    values.update(changes)
    return updated


def _changes(record: GameRecord, event: Event) -> dict[str, Any]:
    """The fields ``event`` changes in ``record``, with their new values."""
    payload = event.payload
    match event.kind:
        case EventKind.SEAT_TAKEN:
            index = _open_seat(record, event)
            user = payload["user"]
            if user is not None and any(taken.user_id == user for taken in record.seats):
                raise ImpossibleEvent(event, f"user {user} already has a seat in this game")
            seat = SeatRecord(user_id=user, display_name=payload["display_name"])
            return {"seats": _with_seat(record.seats, index, seat)}
        case EventKind.BOT_ADDED:
            index = _open_seat(record, event)
            seat = SeatRecord(bot_level=payload["level"], display_name=payload["display_name"])
            return {"seats": _with_seat(record.seats, index, seat)}
        case EventKind.SEAT_LEFT:
            _require_status(record, event, Status.WAITING)
            index = _seat_index(record, event)
            if record.seats[index].is_open:
                raise ImpossibleEvent(event, f"seat {index} is empty")
            return {"seats": _with_seat(record.seats, index, SeatRecord())}
        case EventKind.GAME_STARTED:
            _require_status(record, event, Status.WAITING)
            open_seats = [index for index, seat in enumerate(record.seats) if seat.is_open]
            if open_seats:
                raise ImpossibleEvent(event, f"seat {open_seats[0]} is open")
            setup = engine.setup_from_json(payload["setup"])
            return {
                "status": Status.ACTIVE,
                "setup": setup,
                "commitment": payload["commitment"],
                "state": engine.initial_state(setup),
                "started_at": event.created_at,
            }
        case EventKind.ACTION_TAKEN:
            _require_status(record, event, Status.ACTIVE)
            assert record.state is not None
            action = event.action
            if action is None:
                action = engine.action_from_json(payload["action"], record.variant)
            changes: dict[str, Any] = {"state": engine.apply_action(record.state, action)}
            if event.seat is not None and not payload.get("on_time_out"):
                # A move the player made themselves ends a run of time-outs.
                seat = record.seats[event.seat]
                if seat.timeouts_in_row:
                    seat = replace(seat, timeouts_in_row=0)
                    changes["seats"] = _with_seat(record.seats, event.seat, seat)
            return changes
        case EventKind.TURN_TIMED_OUT | EventKind.SEAT_HANDED_TO_BOT | EventKind.SEAT_RECLAIMED:
            _require_status(record, event, Status.ACTIVE)
            return {"seats": _seats_after_deadline_event(record, event)}
        case EventKind.PLAYER_RESIGNED:
            _require_status(record, event, Status.ACTIVE)
            index = _seat_index(record, event)
            if index in record.resigned:
                raise ImpossibleEvent(event, f"seat {index} has resigned already")
            return {"resigned": (*record.resigned, index)}
        case EventKind.GAME_FINISHED:
            _require_status(record, event, Status.ACTIVE)
            return {
                "status": Status.FINISHED,
                "result": payload["result"],
                "finished_at": event.created_at,
            }
        case EventKind.GAME_ABORTED:
            if record.status not in (Status.WAITING, Status.ACTIVE):
                raise ImpossibleEvent(event, f"the game is {record.status} already")
            return {
                "status": Status.ABORTED,
                "result": {"aborted": True, "reason": payload.get("reason", "")},
                "finished_at": event.created_at,
            }
        case EventKind.GAME_CREATED:
            raise ImpossibleEvent(event, "a game is created once, by its first event")
    raise ValueError(f"unknown event kind {event.kind!r}")


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


def _seats_after_deadline_event(record: GameRecord, event: Event) -> tuple[SeatRecord, ...]:
    """Time-outs and the seat handed to the bot and back (docs/decisions/0109-turn-deadlines.md)."""
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
    return _with_seat(record.seats, index, seat)


def result_of(record: GameRecord) -> dict[str, Any] | None:
    """The final result once the engine says the game is over, or after a resignation.

    A resignation ends the game at once: the seats that did not resign are ranked by the usual
    rules (most points, then fewest cards bought) and the best of them win
    (docs/decisions/0006-resignation-ends-the-game.md).
    """
    state = record.state
    if state is None:
        return None
    outcome = engine.outcome(state)
    if outcome is not None and not record.resigned:
        return {
            "winners": list(outcome.winners),
            "points": list(outcome.points),
            "cards_bought": list(outcome.cards_bought),
            "decided_by": outcome.decided_by,
            "ended_by": outcome.ended_by,
        }
    if not record.resigned:
        return None
    scores = engine.view(state, None)["players"]
    points = [player["points"] for player in scores]
    cards_bought = [len(player["cards"]) for player in scores]
    remaining = [seat for seat in range(record.seat_count) if seat not in record.resigned]
    best = max((points[seat], -cards_bought[seat]) for seat in remaining)
    winners = [seat for seat in remaining if (points[seat], -cards_bought[seat]) == best]
    return {
        "winners": winners,
        "points": points,
        "cards_bought": cards_bought,
        "decided_by": "resignation",
        "ended_by": "resignation",
        "resigned": list(record.resigned),
    }


def _with_seat(
    seats: tuple[SeatRecord, ...], index: int, seat: SeatRecord
) -> tuple[SeatRecord, ...]:
    return (*seats[:index], seat, *seats[index + 1 :])
