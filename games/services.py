"""Commands: the only code that writes games, seats and events.

Each command is one transaction: lock the game row, check the request against the game (and the
engine), append the events, fold them into the read models with ``projection.evolve``, and queue
follow-up work to run after commit. A refusal raises a ``games.errors.GameError`` and writes
nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounts.selectors import display_name_for
from games import engine, limits, projection, rows, state_cache
from games.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    StaleVersion,
)
from games.event_kinds import EventKind
from games.models import Game, GameEvent, IdempotencyRecord, Seat
from games.projection import Event, GameRecord, SeatRecord
from games.selectors import can_view, game_get, game_key, game_record

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


# Follow-ups run after a successful commit, with the game's id and new version. Other parts of
# the service (bot turns, notifications) register here instead of the services importing them.
_after_commit_hooks: list[Callable[[int, int], None]] = []

Condition = Callable[[GameRecord], bool]
"""A test of the game as the writer just committed it, asked in this process: no query."""


@dataclass(frozen=True)
class WhenABotMovesNext:
    """An after-commit hook run only after commits that leave the game waiting for a bot.

    The writer knows who moves next and who sits at the table, so the hook need not ask the
    database: it is called ``hook(game_id, version, with_player=...)``, ``with_player`` telling
    whether a player has a seat in the game.
    """

    hook: Callable[..., None]

    def __call__(self, game_id: int, version: int, *, with_player: bool) -> None:
        self.hook(game_id, version, with_player=with_player)


@dataclass(frozen=True)
class WhenAPersonMovesNext:
    """An after-commit hook run only after commits that leave the game waiting for a person
    (``waits_for_a_person``), called ``hook(game_id, version, has_email=...)``.

    ``has_email`` tells whether that player has an email address, as the writer read it with
    the locked game (or from the user who acted): None when it does not know. So a hook that
    would mail them need not ask the database first.
    """

    hook: Callable[..., None]

    def __call__(self, game_id: int, version: int, *, has_email: bool | None) -> None:
        self.hook(game_id, version, has_email=has_email)


@dataclass(frozen=True)
class OnlyWhen:
    """An after-commit hook run only after commits whose game passes ``condition``.

    A hook that would otherwise ask the database whether it has work (a finished game, a seat
    the bot plays) is told by the writer instead, and costs nothing after the other commits.
    """

    hook: Callable[[int, int], None]
    condition: Condition

    def __call__(self, game_id: int, version: int) -> None:
        self.hook(game_id, version)


def register_after_commit(
    hook: Callable[..., None],
    *,
    only_when_a_bot_moves_next: bool = False,
    only_when_a_person_moves_next: bool = False,
    when: Condition | None = None,
) -> None:
    """Run ``hook(game_id, version)`` after each commit that appended events to a game.

    With ``when``, only after those whose game, as committed, passes ``when(record)``. With
    ``only_when_a_bot_moves_next``, only after those that leave it waiting for a bot, as
    ``hook(game_id, version, with_player=...)`` (see ``WhenABotMovesNext``); with
    ``only_when_a_person_moves_next``, for a person, as
    ``hook(game_id, version, has_email=...)`` (see ``WhenAPersonMovesNext``).
    """
    entry: Callable[..., None] = hook
    if only_when_a_bot_moves_next:
        entry = WhenABotMovesNext(hook)
    elif only_when_a_person_moves_next:
        entry = WhenAPersonMovesNext(hook)
    elif when is not None:
        entry = OnlyWhen(hook, when)
    if entry not in _after_commit_hooks:
        _after_commit_hooks.append(entry)


def waits_for_a_person(record: GameRecord) -> bool:
    """The game waits for a person's move (not a bot's, not a seat handed to the bot)."""
    seat = record.acting_seat
    return seat is not None and record.seats[seat].is_played_by_a_person


def waits_for_a_seat_handed_to_the_bot(record: GameRecord) -> bool:
    seat = record.acting_seat
    return seat is not None and record.seats[seat].is_away


def is_finished(record: GameRecord) -> bool:
    return record.status == projection.FINISHED


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
    require_status(record, Game.Status.FINISHED, "Only a finished game can be played again.")
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
        require_status(record, projection.WAITING, "You can only join a game that has not started.")
        if any(taken.user_id == user.pk for taken in record.seats):
            raise InvalidRequest("You already have a seat in this game.")
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
        require_status(record, projection.WAITING, "The game has started: resign instead.")
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
        require_status(record, projection.WAITING, "Bots can join only before the start.")
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
        require_status(writer.record, projection.WAITING, "The game has already started.")
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
        require_status(record, projection.ACTIVE, "The game is not in progress.")
        if expected_version != record.version:
            raise StaleVersion(record.version)
        seat = _require_turn(record, user, as_bot)
        try:
            parsed = engine.action_from_json(action, record.variant)
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
        require_status(writer.record, projection.ACTIVE, "Only a game in progress can be resigned.")
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
        if record.status not in (projection.WAITING, projection.ACTIVE):
            raise InvalidRequest("The game is already over.")
        is_staff = by_user is not None and getattr(by_user, "is_staff", False)
        is_creator = by_user is not None and by_user.pk == record.created_by_id
        if not (is_staff or (is_creator and record.status == projection.WAITING)):
            raise NotAllowed("Only staff, or the creator before the start, can abort a game.")
        writer.append(EventKind.GAME_ABORTED, {"reason": reason}, actor=by_user)
        writer.save()
    return writer.game


# The writer: appends events, folds them, saves the read models ------------------------------


class GameWriter:
    """One transaction's appends to one game, whose row the caller has locked.

    For the commands here and in ``games.turn_deadlines``: nothing else writes games.
    """

    def __init__(self, game: Game, record: GameRecord | None) -> None:
        self.game = game
        self._record = record
        self._appended = False
        self._seats_changed = False
        self._seats_before = record.seats if record is not None else ()
        self._has_email: dict[int, bool] = {}
        """Whether a seated player has an email address, by user id, as far as known here."""

    @classmethod
    def locked(cls, game_id: int) -> GameWriter:
        """Lock the game's row and read it with its seats, in one round trip: one row per
        seat, each joined to the game and to its player's address, only the game's row
        locked. In SQL: the ORM took three times the CPU of the round trip to build this."""
        game_columns = rows.columns(Game)
        found = rows.fetch_all(_locked_game_with_seats(connection.vendor), [game_key(game_id)])
        if not found:
            raise GameNotFound(f"There is no game {game_id}.")
        width = len(game_columns)
        seats = tuple(
            SeatRecord(user_id, bot_level, display_name, bool(is_away), timeouts_in_row)
            for user_id, bot_level, display_name, is_away, timeouts_in_row, _ in (
                row[width:] for row in found
            )
        )
        game = game_columns.build(found[0])
        writer = cls(game, game_record(game, seats=seats))
        writer._has_email.update(
            (row[width], bool(row[-1])) for row in found if row[width] is not None
        )
        return writer

    @property
    def record(self) -> GameRecord:
        assert self._record is not None
        return self._record

    def append(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        seat: int | None = None,
        actor: AbstractBaseUser | None = None,
    ) -> int:
        """Fold the event into the record, then insert it; a fold that refuses writes nothing."""
        seq = (self._record.version if self._record else 0) + 1
        created_at = timezone.now()
        self._record = projection.evolve(self._record, Event(seq, kind, payload, seat, created_at))
        rows.insert(GameEvent(
            game=self.game, seq=seq, kind=kind, payload=payload, seat=seat, actor=actor,
            schema_version=projection.CURRENT_SCHEMA_VERSION, created_at=created_at,
        ))  # fmt: skip
        self._appended = True
        if actor is not None and actor.pk not in self._has_email:
            self._has_email[actor.pk] = bool(getattr(actor, actor.get_email_field_name(), ""))
        if kind in _SEAT_EVENTS:
            self._seats_changed = True
        return seq

    def start_if_full(self, seed: int | None) -> None:
        record = self.record
        if record.status != projection.WAITING or any(seat.is_open for seat in record.seats):
            return
        if seed is None:
            seed = secrets.randbits(52)  # exact in any JSON reader, JavaScript's included
        if record.start_position is not None:
            setup = engine.setup_from_position(record.start_position, seed)
        else:
            setup = engine.new_game(record.variant, record.seat_count, seed, record.options)
        self.start_with(engine.setup_to_json(setup))

    def start_with(self, setup_json: dict[str, Any], salt: str | None = None) -> None:
        """Record the start: the setup, private until the end, and its published commitment."""
        salt = salt or secrets.token_hex(16)
        self.append(
            EventKind.GAME_STARTED,
            {
                "setup": setup_json,
                "salt": salt,
                "commitment": projection.commitment_for(setup_json, salt),
            },
        )

    def finish_if_over(self) -> None:
        result = projection.result_of(self.record)
        if result is not None:
            self.append(EventKind.GAME_FINISHED, {"result": result})

    def save(self) -> None:
        """Write the read models from the record, then queue follow-ups for after commit."""
        record = self.record
        game = self.game
        game.status = record.status
        game.version = record.version
        game.commitment = record.commitment
        game.acting_seat = record.acting_seat
        game.result = record.result
        game.started_at = record.started_at
        game.finished_at = record.finished_at
        game.move_seconds = record.move_seconds
        game.turn_version = record.turn_version
        game.turn_started_at = record.turn_started_at
        game.turn_deadline = record.turn_deadline
        game.reminder_at = record.reminder_at
        if record.state is not None:
            game.snapshot = engine.state_to_json(record.state)
            game.snapshot_version = record.version
            # The next read of this version (the seat to act asking its legal actions) finds
            # the state decoded; should this write roll back, its snapshot matches no read.
            state_cache.remember(game.pk, record.version, game.snapshot, record.state)
        if rows.update(game, _GAME_READ_MODEL_FIELDS) != 1:
            raise DatabaseError(f"game {game.pk} was not saved")
        if self._seats_changed or record.seats != self._seats_before:
            for seat in Seat.objects.filter(game=game):
                wanted = record.seats[seat.index]
                current = SeatRecord(seat.user_id, seat.bot_level, seat.display_name,
                                     seat.is_away, seat.timeouts_in_row)  # fmt: skip
                if current != wanted:
                    seat.user_id, seat.bot_level = wanted.user_id, wanted.bot_level
                    seat.display_name = wanted.display_name
                    seat.is_away, seat.timeouts_in_row = wanted.is_away, wanted.timeouts_in_row
                    seat.save(update_fields=_SEAT_READ_MODEL_FIELDS)
        if self._appended:
            game_id, version = game.pk, record.version
            bot_moves_next = record.bot_moves_next
            with_player = any(seat.user_id is not None for seat in record.seats)
            person = None
            if waits_for_a_person(record):
                person = record.seats[record.acting_seat].user_id
            has_email = self._has_email.get(person) if person is not None else None
            for hook in _after_commit_hooks:
                # robust: a follow-up that fails (say, the broker is down) must not turn a
                # committed move into an error; the sweeper re-queues what was lost.
                if isinstance(hook, WhenABotMovesNext):
                    if bot_moves_next:
                        transaction.on_commit(
                            lambda hook=hook: hook(game_id, version, with_player=with_player),
                            robust=True,
                        )
                elif isinstance(hook, WhenAPersonMovesNext):
                    if person is not None:
                        transaction.on_commit(
                            lambda hook=hook: hook(game_id, version, has_email=has_email),
                            robust=True,
                        )
                elif not isinstance(hook, OnlyWhen) or hook.condition(record):
                    transaction.on_commit(lambda hook=hook: hook(game_id, version), robust=True)


@functools.cache
def _locked_game_with_seats(vendor: str) -> str:
    """The writer's read for the database ``vendor`` (the cache key): ``FOR UPDATE OF`` the
    game where the database has it (not SQLite, whose writes lock the whole file anyway).
    Each row: the game's columns (``rows.columns``), then one seat's, then whether the seat's
    player has an email address."""
    seat_columns = ", ".join(
        f"seat.{column}"
        for column in ("user_id", "bot_level", "display_name", "is_away", "timeouts_in_row")
    )
    person = get_user_model()
    email = connection.ops.quote_name(person._meta.get_field(person.get_email_field_name()).column)
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = connection.ops.for_update_sql(of=("game",))
    elif connection.features.has_select_for_update:
        lock = connection.ops.for_update_sql()
    return (
        f"SELECT {rows.columns(Game).select('game')}, {seat_columns}, "
        f"COALESCE(person.{email} <> '', FALSE) FROM {Game._meta.db_table} game "
        f"JOIN {Seat._meta.db_table} seat ON seat.game_id = game.id "
        f"LEFT JOIN {person._meta.db_table} person ON person.id = seat.user_id "
        f'WHERE game.id = %s ORDER BY seat."index" {lock}'
    )


_SEAT_EVENTS = frozenset({EventKind.SEAT_TAKEN, EventKind.SEAT_LEFT, EventKind.BOT_ADDED})
_GAME_READ_MODEL_FIELDS = (
    "status", "version", "commitment", "acting_seat", "result", "started_at", "finished_at",
    "snapshot", "snapshot_version", "updated_at", "move_seconds", "turn_version",
    "turn_started_at", "turn_deadline", "reminder_at",
)  # fmt: skip
_SEAT_READ_MODEL_FIELDS = ["user", "bot_level", "display_name", "is_away", "timeouts_in_row"]


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
        raise InvalidRequest("Every seat in this game is taken.")
    if not 0 <= wanted < record.seat_count:
        raise InvalidRequest(f"This game has no seat {wanted}.")
    if not record.seats[wanted].is_open:
        raise InvalidRequest(f"Seat {wanted} is already taken.")
    return wanted


def _check_bot_level(level: str) -> None:
    if level not in Seat.BotLevel.values:
        raise InvalidRequest(f"Unknown bot level {level!r}; choose {', '.join(Seat.BotLevel)}.")


def _seat_taken(index: int, user: AbstractBaseUser) -> dict[str, Any]:
    return {"seat": index, "user": user.pk, "display_name": _display_name(user)}


def _bot_added(index: int, level: str) -> dict[str, Any]:
    return {"seat": index, "level": level, "display_name": f"{Seat.BotLevel(level).label} bot"}


def _display_name(user: AbstractBaseUser) -> str:
    return display_name_for(user)


def _fingerprint(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()
