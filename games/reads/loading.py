"""Loading one game: its row, its private engine state, its record as the services need it.

What a viewer may see of a game is built from these in ``games.reads.game_view``; the private
state is for services and reads only, never handed to a viewer.
"""

from __future__ import annotations

import functools

from django.db import connection

from games import engine
from games.errors import GameNotFound
from games.models import Game, Seat
from games.reads.access import Viewer
from games.records import projection
from games.records.record import GameRecord, SeatRecord
from games.store import row_reads, rows, state_cache


def game_get(game_id: int) -> Game:
    """The game's row: read with a cursor (``row_reads``), the ORM's model machinery costs
    three times the round trip here, and this is under every snapshot load."""
    game = row_reads.game_row(game_key(game_id))
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return game


def game_key(game_id: object) -> int:
    """``game_id`` as a key the database can compare, for reads written in SQL; GameNotFound
    for anything that cannot be a game's id (the ORM answers those with no row as well)."""
    try:
        key = int(game_id)  # type: ignore[call-overload]
    except (ValueError, TypeError):
        raise GameNotFound(f"There is no game {game_id}.") from None
    if not 0 < key < 2**63:
        raise GameNotFound(f"There is no game {game_id}.")
    return key


@functools.cache
def _game_sql(vendor: str, with_viewer_seat: bool = False) -> str:
    """The game's row by id, for the database ``vendor`` (the cache key); ``with_viewer_seat``,
    then the seat of a user (the first parameter): a player has at most one seat in a game
    (``one_seat_per_user_per_game``)."""
    viewer_seat = (
        f', (SELECT seat."index" FROM {Seat._meta.db_table} seat '
        "WHERE seat.game_id = game.id AND seat.user_id = %s)"
    )
    return (
        f"SELECT {rows.columns(Game).select('game')}{viewer_seat if with_viewer_seat else ''} "
        f"FROM {Game._meta.db_table} game WHERE game.id = %s"
    )


def game_variant(game_id: int) -> str | None:
    """The variant of a game (one column), or None when there is no such game."""
    return Game.objects.filter(pk=game_id).values_list("variant", flat=True).first()


def game_state(game: Game) -> engine.State | None:
    """The private engine state: from the snapshot when it is current, else by replay.

    For services and selectors only; never hand it to a viewer.
    """
    if game.snapshot is not None and game.snapshot_version == game.version:
        return state_cache.decoded_state(game.pk, game.version, game.snapshot)
    return game_replay(game).state


def game_replay(game: Game, *, checked: bool = False) -> GameRecord:
    """The game rebuilt from its whole event log, ignoring every read model.

    ``checked`` makes the engine check every recorded action again (``projection.replay``).
    """
    return projection.replay(row_reads.game_events(game.pk, game.variant), checked=checked)


SEAT_RECORD_FIELDS = ("user_id", "bot_level", "display_name", "is_away", "timeouts_in_row")
"""A seat row's columns in the order of ``SeatRecord``'s fields."""


def game_record(game: Game, *, seats: tuple[SeatRecord, ...] | None = None) -> GameRecord:
    """The game as the services need it before appending: read models plus the snapshot.

    ``seats`` are the game's seats in order, when the caller read them with the game.
    Falls back to a full replay when the snapshot is not current. The setup is not loaded on
    the fast path: nothing after the start needs it.
    """
    snapshot_is_current = game.snapshot is not None and game.snapshot_version == game.version
    if game.started_at is not None and not snapshot_is_current:
        return game_replay(game)
    if game.started_at is None and game.origin:
        return game_replay(game)  # a fork waiting for players: its position is in the log
    if seats is None:
        seats = tuple(
            SeatRecord(*row)
            for row in Seat.objects.filter(game=game)
            .order_by("index")
            .values_list(*SEAT_RECORD_FIELDS)
        )
    resigned = tuple(game.result.get("resigned", ())) if game.result else ()
    return GameRecord(
        variant=game.variant,
        seat_count=game.seat_count,
        options=game.options,
        is_public=game.is_public,
        created_by_id=game.created_by_id,
        seats=seats,
        status=game.status,
        version=game.version,
        commitment=game.commitment,
        state=None
        if game.snapshot is None
        else state_cache.decoded_state(game.pk, game.snapshot_version, game.snapshot),
        result=game.result,
        created_at=game.created_at,
        started_at=game.started_at,
        finished_at=game.finished_at,
        resigned=resigned,
        move_seconds=game.move_seconds,
        turn_version=game.turn_version,
        turn_started_at=game.turn_started_at,
        origin=game.origin,
    )


def game_get_with_viewer_seat(game_id: int, viewer: Viewer) -> Game:
    """The game, with ``viewer``'s seat read in the same query: ``seat_for_viewer`` then costs
    no round trip. For reads only: a write that moves seats makes the annotation stale.

    Written in SQL: on the API's hottest read, building this query with the ORM cost three
    times the CPU of the round trip itself.
    """
    if viewer is None or not viewer.is_authenticated:
        return game_get(game_id)
    columns = rows.columns(Game)
    found = rows.fetch_all(_game_sql(connection.vendor, True), [viewer.pk, game_key(game_id)])
    if not found:
        raise GameNotFound(f"There is no game {game_id}.")
    game = columns.build(found[0])
    game.viewer_seat_of = viewer.pk  # type: ignore[attr-defined]
    game.viewer_seat_index = found[0][len(columns)]  # type: ignore[attr-defined]
    return game
