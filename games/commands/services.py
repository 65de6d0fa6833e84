"""Commands: the only code that writes games, seats and events (through ``games.commands.writer``).

Each command is one transaction: lock the game row, check the request against the game (and the
engine), append the events, fold them into the read models with ``projection.evolve``, and queue
follow-up work to run after commit (``games.commands.after_commit``). A refusal raises a
``games.errors.GameError`` and writes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from accounts.selectors import display_name_for
from games import engine
from games.commands import limits
from games.commands.writer import GameWriter
from games.errors import (
    AlreadySeated,
    GameNotFound,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    SeatTaken,
    StaleVersion,
)
from games.models import Game, IdempotencyRecord, Seat
from games.reads.access import can_view
from games.reads.loading import game_get, game_record
from games.records.record import GameRecord
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


@dataclass(frozen=True)
class ActionResult:
    """What an accepted action did: the game's new version and the events it appended, the
    seat the game now waits for, and the actor's own legal actions when that is still them
    (returning tokens, choosing a noble), so a client need not ask again."""

    game_id: int
    version: int
    events: tuple[int, ...]
    acting_seat: int | None = None
    actions: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "events": list(self.events),
            "acting_seat": self.acting_seat,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActionResult:
        return cls(
            data["game_id"],
            data["version"],
            tuple(data["events"]),
            data.get("acting_seat"),
            tuple(data.get("actions", ())),
        )


# Lobby ----------------------------------------------------------------------------------------


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
    with transaction.atomic():
        if created_by is not None:
            bot_only = all(isinstance(request, BotSeat) for request in seats)
            limits.check_can_create(created_by, bot_only=bot_only)
        if move_seconds is not None:
            for request in seats:
                if isinstance(request, UserSeat):
                    limits.check_can_play_another_with_deadlines(request.user)
        game = Game.objects.create(variant=variant, seat_count=len(seats), is_public=is_public,
                                   created_by=created_by, options=options,
                                   origin=dict(origin) if origin else None)  # fmt: skip
        Seat.objects.bulk_create(Seat(game=game, index=index) for index in range(len(seats)))
        writer = GameWriter(game, None)
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
        for index, request in enumerate(seats):
            if isinstance(request, UserSeat):
                writer.append(EventKind.SEAT_TAKEN, _seat_taken(index, request.user), seat=index,
                              actor=request.user)  # fmt: skip
            elif isinstance(request, BotSeat):
                writer.append(EventKind.BOT_ADDED, _bot_added(index, request.level), seat=index,
                              actor=created_by)  # fmt: skip
        writer.start_if_full(seed)
        writer.save()
    return game


def game_rematch(*, game_id: int, by_user: AbstractBaseUser) -> Game:
    """A new game with the seats of a finished one, asked for by one of its players: the same
    people seated again in the same order (as when invited by name), the bots at the same
    levels, open seats open; same variant, options and visibility."""
    game = game_get(game_id)
    if not can_view(game, by_user):
        raise GameNotFound(f"There is no game {game_id}.")
    record = game_record(game)
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
    """Start a game whose seats are all filled (the lobby services do this by themselves).

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


# Play -----------------------------------------------------------------------------------------


def game_take_action(
    *,
    game_id: int,
    action: Mapping[str, Any],
    expected_version: int,
    user: AbstractBaseUser | None = None,
    as_bot: bool = False,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Apply one action (in the JSON of ``docs/notation.md``) for the seat the game waits for.

    The caller is a seated ``user`` or, with ``as_bot``, the bot in that seat. With an
    ``idempotency_key`` a repeated request gets the first result back and appends nothing.
    """
    if (user is None) == (not as_bot):
        raise ValueError("an action comes from exactly one of a user or the seat's bot")
    fingerprint = ""
    if idempotency_key is not None:
        fingerprint = _fingerprint({"action": action, "expected_version": expected_version})
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        if idempotency_key is not None:
            if user is None:
                raise ValueError("idempotency keys belong to users")
            earlier = IdempotencyRecord.objects.filter(
                game=writer.game, user=user, key=idempotency_key
            ).first()
            if earlier is not None:
                if earlier.request_fingerprint != fingerprint:
                    raise IdempotencyKeyReused(
                        "This idempotency key was already used for a different request."
                    )
                return ActionResult.from_json(earlier.result)
        record = writer.record
        try:
            # First, whatever the game's state: the API reads a body of any game, and one that
            # is not this game's action is refused alike at every version (400, not 409 or 412).
            parsed = engine.action_from_json(action, record.variant)
        except engine.MalformedJSON as error:
            raise IllegalMove(str(error)) from None
        require_status(record, Status.ACTIVE, "The game is not in progress.")
        if expected_version != record.version:
            raise StaleVersion(record.version)
        seat = _require_turn(record, user, as_bot)
        try:
            # The fold applies the action: an illegal one raises before anything is written.
            first = writer.append(
                EventKind.ACTION_TAKEN,
                {"action": engine.action_to_json(parsed)},
                seat=seat,
                actor=user,
            )
        except engine.IllegalAction as error:
            raise IllegalMove(str(error)) from None
        writer.finish_if_over()
        writer.save()
        after = writer.record
        acting_seat = after.acting_seat
        actions: tuple[dict[str, Any], ...] = ()
        if acting_seat == seat and not as_bot and after.state is not None:
            actions = tuple(map(engine.action_to_json, engine.legal_actions(after.state)))
        result = ActionResult(writer.game.pk, after.version,
                              tuple(range(first, after.version + 1)), acting_seat,
                              actions)  # fmt: skip
        if idempotency_key is not None and user is not None:
            IdempotencyRecord.objects.create(game=writer.game, user=user, key=idempotency_key,
                                             request_fingerprint=fingerprint,
                                             result=result.to_json())  # fmt: skip
    return result


def game_resign(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Resign: the game ends at once and the best of the other players win."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        require_status(writer.record, Status.ACTIVE, "Only a game in progress can be resigned.")
        index = seat_of(writer.record, user)
        writer.append(EventKind.PLAYER_RESIGNED, {"seat": index}, seat=index, actor=user)
        writer.finish_if_over()
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


# Checks ---------------------------------------------------------------------------------------


def require_status(record: GameRecord, status: str, message: str) -> None:
    if record.status != status:
        raise InvalidRequest(message)


def _require_turn(record: GameRecord, user: AbstractBaseUser | None, as_bot: bool) -> int:
    seat = record.acting_seat
    assert seat is not None
    occupant = record.seats[seat]
    if as_bot:
        if not occupant.bot_level:
            raise NotAllowed("It is not a bot's turn.")
        return seat
    assert user is not None
    if all(taken.user_id != user.pk for taken in record.seats):
        raise NotAllowed("You do not have a seat in this game.")
    if occupant.user_id != user.pk:
        raise NotAllowed(f"It is not your turn: the game waits for {occupant.display_name}.")
    return seat


def seat_of(record: GameRecord, user: AbstractBaseUser) -> int:
    for index, seat in enumerate(record.seats):
        if seat.user_id == user.pk:
            return index
    raise NotAllowed("You do not have a seat in this game.")


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
    return {"seat": index, "user": user.pk, "display_name": _display_name(user)}


def _bot_added(index: int, level: str) -> dict[str, Any]:
    return {"seat": index, "level": level, "display_name": f"{BotLevel(level).label} bot"}


def _display_name(user: AbstractBaseUser) -> str:
    return display_name_for(user)


def _fingerprint(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()
