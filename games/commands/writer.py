"""The writer: one transaction's appends to one game, folded and saved to its read models.

Every command locks the game's row through ``GameWriter.locked``, appends events (each folded
by ``projection.evolve`` before it is inserted, so a fold that refuses writes nothing), and
``save`` writes the game's and seats' read models from the record, then queues the follow-ups
of ``games.commands.after_commit`` for after the commit.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games import engine
from games.commands import after_commit
from games.errors import GameNotFound
from games.models import Game, GameEvent, Seat
from games.reads.loading import game_key, game_record
from games.records import projection
from games.records.record import CURRENT_SCHEMA_VERSION, Event, GameRecord, SeatRecord
from games.store import rows, state_cache
from games.vocabulary import EventKind, Status
from operations import metrics


class GameWriter:
    """One transaction's appends to one game, whose row the caller has locked.

    For the commands of ``games.commands.services``, ``games.commands.history`` and
    ``games.commands.deadlines``: nothing else writes games.
    """

    def __init__(self, game: Game, record: GameRecord | None) -> None:
        self.game = game
        self._record = record
        self._appended = False
        self._kinds_appended: list[str] = []
        self._seats_changed = False
        self._seats_before = record.seats if record is not None else ()
        self._has_email: dict[int, bool] = {}
        """Whether a seated player has an email address, by user id, as far as known here."""

    @classmethod
    def locked(cls, game_id: int) -> GameWriter:
        """Lock the game's row and its seats' rows and read them, in one round trip: one row
        per seat, each joined to the game, with whether its player has an address. In SQL:
        the ORM took three times the CPU of the round trip to build this."""
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
            schema_version=CURRENT_SCHEMA_VERSION, created_at=created_at,
        ))  # fmt: skip
        self._appended = True
        self._kinds_appended.append(kind)
        if actor is not None and actor.pk not in self._has_email:
            self._has_email[actor.pk] = bool(getattr(actor, actor.get_email_field_name(), ""))
        if kind in _SEAT_EVENTS:
            self._seats_changed = True
        return seq

    def start_if_full(self, seed: int | None) -> None:
        record = self.record
        if record.status != Status.WAITING or any(seat.is_open for seat in record.seats):
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
            if after_commit.waits_for_a_person(record):
                person = record.seats[record.acting_seat].user_id
            has_email = self._has_email.get(person) if person is not None else None
            variant, kinds = record.variant, tuple(self._kinds_appended)
            transaction.on_commit(lambda: metrics.events_committed(variant, kinds))
            for hook in after_commit._hooks:
                # robust: a follow-up that fails (say, the broker is down) must not turn a
                # committed move into an error; the sweeper re-queues what was lost.
                if isinstance(hook, after_commit.WhenABotMovesNext):
                    if bot_moves_next:
                        transaction.on_commit(
                            lambda hook=hook: hook(game_id, version, with_player=with_player),
                            robust=True,
                        )
                elif isinstance(hook, after_commit.WhenAPersonMovesNext):
                    if person is not None:
                        transaction.on_commit(
                            lambda hook=hook: hook(game_id, version, has_email=has_email),
                            robust=True,
                        )
                elif not isinstance(hook, after_commit.OnlyWhen) or hook.condition(record):
                    transaction.on_commit(lambda hook=hook: hook(game_id, version), robust=True)


@functools.cache
def _locked_game_with_seats(vendor: str) -> str:
    """The writer's read for the database ``vendor`` (the cache key): ``FOR UPDATE OF`` the
    game and its seats where the database has it (not SQLite, whose writes lock the whole file
    anyway). Each row: the game's columns (``rows.columns``), then one seat's, then whether the
    seat's player has an email address.

    The seats are locked too, not only the game, so that what a command decides from is what
    the commands before it committed (docs/decisions/0121-writer-locks-game-and-seats.md): a request
    that waited for the lock gets, under READ COMMITTED, the newest version of the rows it
    locked only, and a joined row it did not lock is the one it saw before it waited (every
    racing join found the same seat open). The address is a subquery, not a join, for the same
    reason: it is evaluated again for the seat's newest player."""
    seat_columns = ", ".join(
        f"seat.{column}"
        for column in ("user_id", "bot_level", "display_name", "is_away", "timeouts_in_row")
    )
    person = get_user_model()
    email = connection.ops.quote_name(person._meta.get_field(person.get_email_field_name()).column)
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = connection.ops.for_update_sql(of=("game", "seat"))
    elif connection.features.has_select_for_update:
        lock = connection.ops.for_update_sql()
    return (
        f"SELECT {rows.columns(Game).select('game')}, {seat_columns}, "
        f"COALESCE((SELECT person.{email} <> '' FROM {person._meta.db_table} person "
        f"WHERE person.id = seat.user_id), FALSE) FROM {Game._meta.db_table} game "
        f"JOIN {Seat._meta.db_table} seat ON seat.game_id = game.id "
        f'WHERE game.id = %s ORDER BY seat."index" {lock}'
    )


_SEAT_EVENTS = frozenset({EventKind.SEAT_TAKEN, EventKind.SEAT_LEFT, EventKind.BOT_ADDED})
_GAME_READ_MODEL_FIELDS = (
    "status", "version", "commitment", "acting_seat", "result", "started_at", "finished_at",
    "snapshot", "snapshot_version", "updated_at", "move_seconds", "turn_version",
    "turn_started_at", "turn_deadline", "reminder_at",
)  # fmt: skip
_SEAT_READ_MODEL_FIELDS = ["user", "bot_level", "display_name", "is_away", "timeouts_in_row"]
