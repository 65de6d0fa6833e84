"""The fold refuses an event no game can contain, as the engine refuses an illegal action: the
writer appends nothing, a replay raises naming the event, and ``verify_games`` lists the game
(and keeps listing it, without failing, once an operator has aborted it)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone

from games import engine
from games.commands import lobby
from games.commands.integrity import read_model_differences
from games.commands.writer import GameWriter
from games.models import Game, GameEvent, Seat
from games.records import projection
from games.records.changes import ImpossibleEvent
from games.records.record import Event
from games.vocabulary import EventKind, Status
from tests.games.helpers import footprint, reload

ALICE, BOB = 101, 102
SETUP = engine.setup_to_json(engine.new_game("splendor", 2, 7, {}))
STARTED = {"setup": SETUP, "salt": "00", "commitment": projection.commitment_for(SETUP, "00")}


def created(seats: int = 2) -> tuple[str, dict[str, Any]]:
    return EventKind.GAME_CREATED, {"variant": "splendor", "seat_count": seats, "options": {}}


def taken(seat: Any, user: int | None) -> tuple[str, dict[str, Any]]:
    return EventKind.SEAT_TAKEN, {"seat": seat, "user": user, "display_name": f"player {user}"}


def bot(seat: int) -> tuple[str, dict[str, Any]]:
    return EventKind.BOT_ADDED, {"seat": seat, "level": "random", "display_name": "Random bot"}


def of_seat(kind: str, seat: int) -> tuple[str, dict[str, Any]]:
    return kind, {"seat": seat}


FULL = [created(), taken(0, ALICE), taken(1, BOB)]
RUNNING = [*FULL, (EventKind.GAME_STARTED, STARTED)]
FINISHED = [*RUNNING, of_seat(EventKind.PLAYER_RESIGNED, 1)]
FINISHED.append((EventKind.GAME_FINISHED, {"result": {"winners": [0]}}))

IMPOSSIBLE_LOGS: dict[str, tuple[list[tuple[str, dict[str, Any]]], str]] = {
    # name: (the log, the refusal of its last event)
    "a seat taken twice": (
        [created(3), taken(0, ALICE), taken(1, BOB), taken(1, 103)],
        "seat 1 is taken already",
    ),
    "a player seated twice": ([created(3), taken(0, ALICE), taken(1, ALICE)], "user 101"),
    "a player joining the same seat twice": (
        [created(3), taken(0, ALICE), taken(0, ALICE)],
        "seat 0",
    ),
    "a seat the game does not have": ([created(), taken(2, ALICE)], "no seat 2"),
    "a seat that is not a number": ([created(), taken("1", ALICE)], "no seat '1'"),
    "a bot added to a taken seat": ([created(), taken(0, ALICE), bot(0)], "seat 0 is taken"),
    "leaving an empty seat": (
        [created(), taken(0, ALICE), of_seat("SeatLeft", 1)],
        "seat 1 is empty",
    ),
    "a start with an open seat": (
        [created(), taken(0, ALICE), (EventKind.GAME_STARTED, STARTED)],
        "seat 1 is open",
    ),
    "a start twice": ([*RUNNING, (EventKind.GAME_STARTED, STARTED)], "active, not waiting"),
    "a seat taken after the start": ([*RUNNING, taken(0, 103)], "active, not waiting"),
    "leaving after the start": ([*RUNNING, of_seat("SeatLeft", 0)], "active, not waiting"),
    "a finish before a start": (
        [*FULL, (EventKind.GAME_FINISHED, {"result": {"winners": [0]}})],
        "waiting, not active",
    ),
    "a finish twice": (
        [*FINISHED, (EventKind.GAME_FINISHED, {"result": {"winners": [0]}})],
        "finished, not active",
    ),
    "an action before the start": (
        [*FULL, (EventKind.ACTION_TAKEN, {"action": {"type": "pass"}})],
        "waiting, not active",
    ),
    "an action after the end": (
        [*FINISHED, (EventKind.ACTION_TAKEN, {"action": {"type": "pass"}})],
        "finished, not active",
    ),
    "a resignation before the start": (
        [*FULL, of_seat(EventKind.PLAYER_RESIGNED, 0)],
        "waiting, not active",
    ),
    "an abort after the end": ([*FINISHED, (EventKind.GAME_ABORTED, {})], "finished already"),
    "a seat reclaimed that was never handed over": (
        [*RUNNING, of_seat(EventKind.SEAT_RECLAIMED, 0)],
        "not handed to the bot",
    ),
    "a time-out before the start": ([*FULL, of_seat(EventKind.TURN_TIMED_OUT, 0)], "waiting"),
    "a second creation": ([*FULL, created()], "created once"),
}


def as_events(log: list[tuple[str, dict[str, Any]]]) -> list[Event]:
    start = timezone.now()
    return [
        Event(seq, kind, payload, payload.get("seat"), start + timedelta(seconds=seq))
        for seq, (kind, payload) in enumerate(log, start=1)
    ]


# The fold ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(IMPOSSIBLE_LOGS))
def test_the_fold_refuses_the_event_no_game_can_contain(name: str) -> None:
    log, reason = IMPOSSIBLE_LOGS[name]

    for checked in (False, True):
        with pytest.raises(ImpossibleEvent, match=reason) as refused:
            projection.replay(as_events(log), checked=checked)

        assert (refused.value.seq, refused.value.kind) == (len(log), log[-1][0])
        assert str(refused.value).startswith(f"seq {len(log)} ({log[-1][0]}): ")


# The write path ------------------------------------------------------------------------------


WRITES: dict[str, Callable[[User, User], tuple[str, dict[str, Any]]]] = {
    "a seat taken twice": lambda alice, bob: taken(0, bob.pk),
    "a player seated twice": lambda alice, bob: taken(1, alice.pk),
    "a bot added to a taken seat": lambda alice, bob: bot(0),
    "leaving an empty seat": lambda alice, bob: of_seat("SeatLeft", 2),
    "a start with an open seat": lambda alice, bob: (EventKind.GAME_STARTED, STARTED),
    "a finish before a start": lambda alice, bob: (EventKind.GAME_FINISHED, {"result": {}}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(WRITES))
def test_the_writer_appends_nothing_the_fold_refuses(name: str, alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(alice), lobby.OpenSeat(), lobby.OpenSeat()],
        created_by=alice,
    )
    before = footprint(game)
    kind, payload = WRITES[name](alice, bob)

    with transaction.atomic():
        writer = GameWriter.locked(game.pk)
        with pytest.raises(ImpossibleEvent):
            writer.append(kind, payload, seat=payload.get("seat"))

    assert footprint(game) == before
    assert read_model_differences(reload(game)) == []


# Replay: verify_games ------------------------------------------------------------------------


def stored_directly(log: list[tuple[str, dict[str, Any]]]) -> Game:
    """A game whose log is ``log``, written straight to the tables as a buggy writer could
    have: the game's row at the log's version, its seats as the last event left them."""
    events = as_events(log)
    game = Game.objects.create(
        variant="splendor", seat_count=log[0][1]["seat_count"], version=len(events)
    )
    seats: dict[int, tuple[int | None, str]] = {}
    for event in events:
        if event.kind == EventKind.SEAT_TAKEN and isinstance(event.seat, int):
            user = event.payload["user"]
            seats = {index: seat for index, seat in seats.items() if seat[0] != user}
            seats[event.seat] = (user, event.payload["display_name"])
    Seat.objects.bulk_create(
        Seat(game=game, index=index, user_id=seats.get(index, (None, ""))[0],
             display_name=seats.get(index, (None, ""))[1])
        for index in range(game.seat_count)
    )  # fmt: skip
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=event.seq, kind=event.kind, payload=event.payload,
                  seat=event.seat, created_at=event.created_at)
        for event in events
    )  # fmt: skip
    return game


def verify(*game_ids: int) -> str:
    out = StringIO()
    call_command("verify_games", *map(str, game_ids), stdout=out)
    return out.getvalue()


@pytest.fixture
def players(make_user: Callable[..., User]) -> None:
    """The accounts the logs name, so that their seat rows can point at them."""
    for user_id in (ALICE, BOB, 103):
        make_user(f"user{user_id}", id=user_id)


@pytest.mark.django_db
def test_verify_games_names_the_game_of_racing_joins_and_its_first_impossible_event(
    players: None,
) -> None:
    """The log the racing joins wrote: the read models equal its replay, overwrites included,
    so only the fold's rules can tell that it is no game."""
    log = [created(3), taken(0, ALICE), taken(1, BOB), taken(1, 103)]
    game = stored_directly(log)
    healthy = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 2, created_by=None)

    out = StringIO()
    with pytest.raises(CommandError, match="1 game\\(s\\) differ"):
        call_command("verify_games", stdout=out)

    report = out.getvalue()
    assert f"game {game.pk}:\n  impossible event at seq 4 (SeatTaken): seat 1 is taken" in report
    assert f"game {healthy.pk}:" not in report
    assert "2 game(s) replayed, 1 with differences" in report


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(IMPOSSIBLE_LOGS))
def test_verify_games_names_the_game_and_the_event(name: str, players: None) -> None:
    log, reason = IMPOSSIBLE_LOGS[name]
    game = stored_directly(log)

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", str(game.pk), stdout=out)

    event = f"impossible event at seq {len(log)} ({log[-1][0]}): "
    assert f"game {game.pk}:\n  {event}" in out.getvalue()
    assert reason in out.getvalue()


@pytest.mark.django_db
def test_an_aborted_game_with_an_impossible_event_is_listed_without_failing_the_check(
    players: None, staff: User
) -> None:
    game = stored_directly([created(3), taken(0, ALICE), taken(0, BOB)])
    rebuilt = StringIO()
    call_command("rebuild_read_models", str(game.pk), stdout=rebuilt)

    lobby.game_abort(game_id=game.pk, by_user=staff, reason="its log holds an impossible event")

    report = verify(game.pk)
    assert f"game {game.pk} (aborted, kept as recorded):" in report
    assert "impossible event at seq 3 (SeatTaken): seat 0 is taken already" in report
    assert "1 game(s) replayed, 0 with differences, 1 aborted with an impossible event" in report
    assert f"game {game.pk}: left as it is, impossible event at seq 3" in rebuilt.getvalue()
    assert reload(game).status == Status.ABORTED
