"""Finished games written straight into the event log, for tests and benchmarks.

The events are the services' own (the same kinds and payloads, folded with
``games.records.projection.evolve`` as the services fold them, so a game that the fold refuses is
never written), but inserted in bulk: a thousand games take seconds, not the minutes that a
transaction per move would. Moves come from a seeded random player that prefers buying, so games end
in a realistic number of rounds. Used by the tests (``tests/analytics`` and others) and
``benchmarks/analytics.py``; never by the site (it was ``analytics/synthetic.py`` until issue 23
took test fixtures out of the production apps).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Game, GameEvent, Seat
from games.records import projection
from games.records.record import Event, GameRecord
from games.vocabulary import BotLevel, EventKind, Status

BOT_LEVELS = tuple(BotLevel.values)


@dataclass(frozen=True)
class SeatPlan:
    """A user id, or a bot level."""

    user_id: int | None = None
    bot_level: str = ""
    display_name: str = ""


@dataclass(frozen=True)
class GamePlan:
    seats: Sequence[SeatPlan]
    seed: int
    resign_at_turn: int | None = None
    """The turn after which the seat to act resigns (a human seat only), or never."""
    finish: bool = True
    """False leaves the game running after ``stop_at_turn`` actions."""
    stop_at_turn: int = 0
    options: dict[str, Any] | None = None
    variant: str = "splendor"
    origin: dict[str, Any] | None = None
    """As ``Game.origin``: set for an imported or forked game."""


def write_games(plans: Sequence[GamePlan], *, start: datetime | None = None) -> list[int]:
    """Play and store every plan's game; returns the new games' ids, in order."""
    clock = start or timezone.now()
    games, seats, events = [], [], []
    for plan in plans:
        record, rows, clock = _play(plan, clock)
        game = Game(
            variant=record.variant,
            status=record.status,
            options=dict(record.options),
            seat_count=record.seat_count,
            version=record.version,
            snapshot=engine.state_to_json(record.state) if record.state else None,
            snapshot_version=record.version,
            commitment=record.commitment,
            acting_seat=record.acting_seat,
            result=record.result,
            started_at=record.started_at,
            finished_at=record.finished_at,
            # As the writer stores them, so that verify_games finds these games replay.
            turn_version=record.turn_version,
            turn_started_at=record.turn_started_at,
        )
        games.append(game)
        seats.append(record.seats)
        events.append(rows)
    with transaction.atomic():
        Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            Seat(
                game=game,
                index=index,
                user_id=seat.user_id,
                bot_level=seat.bot_level,
                display_name=seat.display_name,
            )
            for game, game_seats in zip(games, seats, strict=True)
            for index, seat in enumerate(game_seats)
        )
        GameEvent.objects.bulk_create(
            GameEvent(
                game=game,
                seq=event.seq,
                kind=event.kind,
                payload=dict(event.payload),
                seat=event.seat,
                created_at=event.created_at,
            )
            for game, rows in zip(games, events, strict=True)
            for event in rows
        )
    return [game.pk for game in games]


def _play(plan: GamePlan, clock: datetime) -> tuple[GameRecord, list[Event], datetime]:
    rng = random.Random(plan.seed)
    rows: list[Event] = []
    record: GameRecord | None = None

    def append(kind: str, payload: dict[str, Any], seat: int | None = None) -> GameRecord:
        nonlocal record, clock
        clock += timedelta(milliseconds=10)
        event = Event(len(rows) + 1, kind, payload, seat, clock)
        record = projection.evolve(record, event)
        rows.append(event)
        return record

    current = append(
        EventKind.GAME_CREATED,
        {
            "variant": plan.variant,
            "seat_count": len(plan.seats),
            "options": plan.options or {},
            "is_public": True,
            "created_by": None,
            **({"origin": plan.origin} if plan.origin else {}),
        },
    )
    for index, seat in enumerate(plan.seats):
        if seat.bot_level:
            payload = {
                "seat": index,
                "level": seat.bot_level,
                "display_name": f"{seat.bot_level.title()} bot",
            }
            current = append(EventKind.BOT_ADDED, payload, index)
        else:
            payload = {
                "seat": index,
                "user": seat.user_id,
                "display_name": seat.display_name or f"player {seat.user_id}",
            }
            current = append(EventKind.SEAT_TAKEN, payload, index)
    setup_json = engine.setup_to_json(
        engine.new_game(plan.variant, len(plan.seats), plan.seed, plan.options)
    )
    salt = secrets.token_hex(16)
    commitment = projection.commitment_for(setup_json, salt)
    current = append(
        EventKind.GAME_STARTED, {"setup": setup_json, "salt": salt, "commitment": commitment}
    )
    while current.status == Status.ACTIVE:
        assert current.state is not None
        if not plan.finish and current.state.turn >= plan.stop_at_turn:
            break
        seat = current.acting_seat
        assert seat is not None
        if (
            plan.resign_at_turn is not None
            and current.state.turn >= plan.resign_at_turn
            and not current.seats[seat].bot_level
        ):
            current = append(EventKind.PLAYER_RESIGNED, {"seat": seat}, seat)
        else:
            action = _choose(rng, engine.legal_actions(current.state))
            current = append(
                EventKind.ACTION_TAKEN, {"action": engine.action_to_json(action)}, seat
            )
        result = projection.result_of(current)
        if result is not None:
            current = append(EventKind.GAME_FINISHED, {"result": result})
    return current, rows, clock


def _choose(rng: random.Random, actions: list[engine.Action]) -> engine.Action:
    buys = [action for action in actions if engine.action_to_json(action)["type"] == "buy_card"]
    if buys and rng.random() < 0.8:
        return rng.choice(buys)
    return rng.choice(actions)
