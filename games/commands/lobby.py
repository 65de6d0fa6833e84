"""Lobby commands: a game made, its seats taken, left and given to bots, started, called off,
played again.

Each is one transaction through ``games.commands.writer.GameWriter``: lock the game row, check
the request against the game, append the events, fold them into the read models, and queue
follow-up work to run after commit (``games.commands.after_commit``). A refusal raises a
``games.errors.GameError`` and writes nothing. The moves themselves are ``games.commands.play``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from accounts.selectors import display_name_for
from games import engine
from games.commands import limits
from games.commands.checks import require_status, seat_of
from games.commands.writer import GameWriter
from games.errors import (
    AlreadySeated,
    GameNotFound,
    InvalidRequest,
    NotAllowed,
    SeatTaken,
)
from games.models import Game
from games.reads.access import can_view
from games.reads.loading import game_get
from games.records.record import GameRecord
from games.store import records
from games.vocabulary import BotLevel, EventKind, Status

MIN_SEATS, MAX_SEATS = 2, 4
MOVE_SECONDS_CHOICES = (3600, 24 * 3600, 3 * 24 * 3600)
"""The times per move a game may have: one hour, one day, three days (or none at all)."""


@dataclass(frozen=True)
class OpenSeat:
    """A seat anyone may take from the lobby or with the invite link."""


@dataclass(frozen=True)
class UserSeat:
    user: AbstractBaseUser


@dataclass(frozen=True)
class BotSeat:
    level: str


SeatRequest = OpenSeat | UserSeat | BotSeat


def game_create(
    *,
    variant: str,
    seats: Sequence[SeatRequest],
    created_by: AbstractBaseUser | None,
    options: Mapping[str, Any] | None = None,
    is_public: bool = True,
    seed: int | None = None,
    origin: Mapping[str, Any] | None = None,
    start_position: Mapping[str, Any] | None = None,
    move_seconds: int | None = None,
) -> Game:
    """Create a game with its seats; it starts at once if every seat is already filled.

    A fork gives its ``origin`` (game and step) and the ``start_position`` it begins from: a
    view, public by definition; its hidden cards are dealt from the seed when it starts.
    With ``move_seconds`` (one of ``MOVE_SECONDS_CHOICES``) each person's move is due that long
    after their turn begins; the sweeper has the greedy bot play a turn whose time ran out.
    """
    options = _checked_new_game(variant, seats, options, move_seconds)
    with transaction.atomic():
        _check_caps(created_by, seats, move_seconds)
        writer = GameWriter.create(variant=variant, seat_count=len(seats), is_public=is_public,
                                   created_by=created_by, options=options,
                                   origin=dict(origin) if origin else None)  # fmt: skip
        created: dict[str, Any] = {
            "variant": variant,
            "seat_count": len(seats),
            "options": options,
            "is_public": is_public,
            "created_by": created_by.pk if created_by else None,
        }
        if move_seconds is not None:
            # Only games with deadlines carry the key, so older events read the same.
            created["move_seconds"] = move_seconds
        if origin:
            created["origin"] = dict(origin)
        if start_position is not None:
            created["position"] = dict(start_position)
        writer.append(EventKind.GAME_CREATED, created, actor=created_by)
        _seat_everyone(writer, seats, created_by)
        writer.start_if_full(seed)
        writer.save()
    return writer.game


def _checked_new_game(
    variant: str,
    seats: Sequence[SeatRequest],
    options: Mapping[str, Any] | None,
    move_seconds: int | None,
) -> dict[str, Any]:
    """The options of a new game, once its request is known to make one; else InvalidRequest."""
    if variant not in engine.VARIANTS:
        raise InvalidRequest(f"Unknown variant {variant!r}.")
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise InvalidRequest(f"A game has {MIN_SEATS} to {MAX_SEATS} seats.")
    users = [request.user.pk for request in seats if isinstance(request, UserSeat)]
    if len(users) != len(set(users)):
        raise InvalidRequest("A player can take only one seat in a game.")
    for request in seats:
        if isinstance(request, BotSeat):
            _check_bot_level(request.level)
    if move_seconds is not None and move_seconds not in MOVE_SECONDS_CHOICES:
        raise InvalidRequest("The time per move is none, one hour, one day or three days.")
    options = dict(options or {})
    try:  # the engine decides which options exist; ask it before recording any
        engine.new_game(variant, len(seats), 0, options)
    except engine.IllegalAction as error:
        raise InvalidRequest(str(error)) from None
    return options


def _check_caps(
    created_by: AbstractBaseUser | None, seats: Sequence[SeatRequest], move_seconds: int | None
) -> None:
    """The accounts' caps (``games.commands.limits``) a new game must stay within."""
    if created_by is not None:
        bot_only = all(isinstance(request, BotSeat) for request in seats)
        limits.check_can_create(created_by, bot_only=bot_only)
    if move_seconds is not None:
        for request in seats:
            if isinstance(request, UserSeat):
                limits.check_can_play_another_with_deadlines(request.user)


def _seat_everyone(
    writer: GameWriter, seats: Sequence[SeatRequest], created_by: AbstractBaseUser | None
) -> None:
    """The players and bots asked for, in their seats; open seats stay open."""
    for index, request in enumerate(seats):
        if isinstance(request, UserSeat):
            writer.append(EventKind.SEAT_TAKEN, _seat_taken(index, request.user), seat=index,
                          actor=request.user)  # fmt: skip
        elif isinstance(request, BotSeat):
            writer.append(EventKind.BOT_ADDED, _bot_added(index, request.level), seat=index,
                          actor=created_by)  # fmt: skip


def game_rematch(*, game_id: int, by_user: AbstractBaseUser) -> Game:
    """A new game with the seats of a finished one, asked for by one of its players: the same
    people seated again in the same order (as when invited by name), the bots at the same
    levels, open seats open; same variant, options and visibility."""
    game = game_get(game_id)
    if not can_view(game, by_user):
        raise GameNotFound(f"There is no game {game_id}.")
    record = records.record_from_rows(game)
    seat_of(record, by_user)
    require_status(record, Status.FINISHED, "Only a finished game can be played again.")
    players = {user.pk: user for user in get_user_model().objects.filter(
        pk__in=[seat.user_id for seat in record.seats if seat.user_id])}  # fmt: skip
    seats: list[SeatRequest] = [
        UserSeat(players[seat.user_id])
        if seat.user_id
        else BotSeat(seat.bot_level)
        if seat.bot_level
        else OpenSeat()
        for seat in record.seats
    ]
    return game_create(
        variant=record.variant,
        seats=seats,
        created_by=by_user,
        options=record.options,
        is_public=record.is_public,
    )


def game_take_seat(
    *,
    game_id: int,
    user: AbstractBaseUser,
    seat: int | None = None,
    invited: bool = False,
    seed: int | None = None,
) -> Game:
    """Sit ``user`` in an open seat (the first open one if ``seat`` is None).

    A private game takes only players who were ``invited`` (the caller checked their invite).
    """
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        if not record.is_public and not invited:
            raise NotAllowed("This game is private: join it with its invite link.")
        if any(taken.user_id == user.pk for taken in record.seats):
            raise AlreadySeated("You already have a seat in this game.")
        if record.status in (Status.ACTIVE, Status.FINISHED):
            raise SeatTaken("Every seat is taken: you can only join a game that has not started.")
        require_status(record, Status.WAITING, "You can only join a game that has not started.")
        if record.move_seconds is not None:
            limits.check_can_play_another_with_deadlines(user)
        index = _open_seat(record, seat)
        limits.check_can_play_another(user)
        writer.append(EventKind.SEAT_TAKEN, _seat_taken(index, user), seat=index, actor=user)
        writer.start_if_full(seed)
        writer.save()
    return writer.game


def game_leave_seat(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Give up one's seat in a game that has not started."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        require_status(record, Status.WAITING, "The game has started: resign instead.")
        index = seat_of(record, user)
        writer.append(EventKind.SEAT_LEFT, {"seat": index}, seat=index, actor=user)
        writer.save()
    return writer.game


def game_add_bot(
    *,
    game_id: int,
    level: str,
    by_user: AbstractBaseUser,
    seat: int | None = None,
    seed: int | None = None,
) -> Game:
    """Put a bot in an open seat; only the game's creator or a seated player may."""
    _check_bot_level(level)
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        require_status(record, Status.WAITING, "Bots can join only before the start.")
        seated = any(taken.user_id == by_user.pk for taken in record.seats)
        if by_user.pk != record.created_by_id and not seated:
            raise NotAllowed("Only the game's creator or a seated player can add a bot.")
        index = _open_seat(record, seat)
        others = [taken for position, taken in enumerate(record.seats) if position != index]
        if all(taken.bot_level for taken in others):  # this bot starts a game of bots only
            limits.check_can_run_another_bot_game(by_user)
        writer.append(EventKind.BOT_ADDED, _bot_added(index, level), seat=index, actor=by_user)
        writer.start_if_full(seed)
        writer.save()
    return writer.game


def game_start(*, game_id: int, by_user: AbstractBaseUser, seed: int | None = None) -> Game:
    """Start a game whose seats are all filled (the other lobby commands do this by themselves).

    Only its creator, one of its players or staff may.
    """
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        seated = any(seat.user_id == by_user.pk for seat in record.seats)
        is_staff = getattr(by_user, "is_staff", False)
        if not (seated or is_staff or by_user.pk == record.created_by_id):
            raise NotAllowed("Only the game's creator, its players or staff can start it.")
        require_status(writer.record, Status.WAITING, "The game has already started.")
        if any(seat.is_open for seat in writer.record.seats):
            raise InvalidRequest("Every seat must be filled before the game starts.")
        writer.start_if_full(seed)
        writer.save()
    return writer.game


def game_abort(*, game_id: int, by_user: AbstractBaseUser | None, reason: str = "") -> Game:
    """Call a game off without a result: staff at any time, the creator before it starts."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        record = writer.record
        if record.status not in (Status.WAITING, Status.ACTIVE):
            raise InvalidRequest("The game is already over.")
        is_staff = by_user is not None and getattr(by_user, "is_staff", False)
        is_creator = by_user is not None and by_user.pk == record.created_by_id
        if not (is_staff or (is_creator and record.status == Status.WAITING)):
            raise NotAllowed("Only staff, or the creator before the start, can abort a game.")
        writer.append(EventKind.GAME_ABORTED, {"reason": reason}, actor=by_user)
        writer.save()
    return writer.game


def _open_seat(record: GameRecord, wanted: int | None) -> int:
    if wanted is None:
        for index, seat in enumerate(record.seats):
            if seat.is_open:
                return index
        raise SeatTaken("Every seat in this game is taken.")
    if not 0 <= wanted < record.seat_count:
        raise InvalidRequest(f"This game has no seat {wanted}.")
    if not record.seats[wanted].is_open:
        raise SeatTaken(f"Seat {wanted} is already taken.")
    return wanted


def _check_bot_level(level: str) -> None:
    if level not in BotLevel.values:
        raise InvalidRequest(f"Unknown bot level {level!r}; choose {', '.join(BotLevel)}.")


def _seat_taken(index: int, user: AbstractBaseUser) -> dict[str, Any]:
    return {"seat": index, "user": user.pk, "display_name": display_name_for(user)}


def _bot_added(index: int, level: str) -> dict[str, Any]:
    return {"seat": index, "level": level, "display_name": f"{BotLevel(level).label} bot"}
