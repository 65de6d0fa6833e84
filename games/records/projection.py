"""Folding a game's events into what the game is now: the one definition of every read model.

The services fold each event they append with :func:`evolve` to know what to write to the read
models, and ``verify_games``/``rebuild_read_models`` fold the whole log the same way, so the
rows and the log cannot disagree without the check seeing it. What each event changes, and the
events refused, are in ``games.records.changes``; the records themselves in
``games.records.record``. Nothing here touches the database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from typing import Any

from games import engine
from games.records.changes import changed_fields
from games.records.record import CURRENT_SCHEMA_VERSION, Event, GameRecord, SeatRecord, seat_to_act
from games.vocabulary import EventKind, Status

_RECORD_FIELDS = frozenset(field.name for field in fields(GameRecord))
_ACTION_TAKEN = EventKind.ACTION_TAKEN.value
"""The kind as a plain string: reading a ``StrEnum`` member costs about 0.3 µs each time."""


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

    An event no game can contain is refused with ``changes.ImpossibleEvent``
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
    changes = changed_fields(record, event)
    changes["version"] = event.seq
    # One copy of the record per event: the fold makes one per event of every replay.
    acting_after = seat_to_act(
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
