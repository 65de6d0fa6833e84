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
from django.db import connection, transaction
from django.utils import timezone

from games import engine
from games.commands import after_commit
from games.errors import GameNotFound
from games.models import Game, GameEvent, Seat
from games.records import projection
from games.records.record import CURRENT_SCHEMA_VERSION, Event, GameRecord
from games.store import records, rows
from games.store.row_reads import game_key
from games.vocabulary import EventKind, Status
from operations import metrics


class GameWriter:
    """One transaction's appends to one game, whose row the caller has locked.

    For the commands of ``games.commands.lobby``, ``games.commands.play``,
    ``games.commands.history`` and ``games.commands.deadlines``: nothing else writes games.
    It reads and writes the rows through ``games.store.records``.
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
    def create(
        cls,
        *,
        variant: str,
        seat_count: int,
        is_public: bool,
        created_by: AbstractBaseUser | None,
        options: dict[str, Any],
        origin: dict[str, Any] | None,
    ) -> GameWriter:
        """Make a new game's row and its empty seats' rows, for its first events to follow."""
        game = Game.objects.create(
            variant=variant,
            seat_count=seat_count,
            is_public=is_public,
            created_by=created_by,
            options=options,
            origin=origin,
        )
        Seat.objects.bulk_create(Seat(game=game, index=index) for index in range(seat_count))
        return cls(game, None)

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
        seats = tuple(records.seat_record(row[width:-1]) for row in found)
        game = game_columns.build(found[0])
        writer = cls(game, records.record_from_rows(game, seats=seats))
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
        records.save_game_row(self.game, record)
        if self._seats_changed or record.seats != self._seats_before:
            records.save_seat_rows(self.game, record)
        if self._appended:
            variant, kinds = record.variant, tuple(self._kinds_appended)
            transaction.on_commit(lambda: metrics.events_committed(variant, kinds))
            after_commit.queue_hooks(record, self._committed())

    def _committed(self) -> after_commit.Committed:
        """What the hooks are told of the saved record."""
        record = self.record
        mover_has_email = None
        if after_commit.waits_for_a_person(record):
            mover = record.seats[record.acting_seat].user_id
            mover_has_email = self._has_email.get(mover)
        return after_commit.Committed(
            game_id=self.game.pk,
            version=record.version,
            has_a_player=any(seat.user_id is not None for seat in record.seats),
            mover_has_email=mover_has_email,
        )


@functools.cache
def _locked_game_with_seats(vendor: str) -> str:
    """The writer's read for the database ``vendor`` (the cache key): ``FOR UPDATE OF`` the
    game and its seats where the database has it (not SQLite, whose writes lock the whole file
    anyway). Each row: the game's columns (``rows.columns``), then one seat's
    (``records.SEAT_COLUMNS``), then whether the seat's player has an email address.

    The seats are locked too, not only the game, so that what a command decides from is what
    the commands before it committed (docs/decisions/0121-writer-locks-game-and-seats.md): a request
    that waited for the lock gets, under READ COMMITTED, the newest version of the rows it
    locked only, and a joined row it did not lock is the one it saw before it waited (every
    racing join found the same seat open). The address is a subquery, not a join, for the same
    reason: it is evaluated again for the seat's newest player."""
    seat_columns = ", ".join(f"seat.{column}" for column in records.SEAT_COLUMNS)
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
