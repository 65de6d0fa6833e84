"""Loading one game: its row and its private engine state (its record, as the commands need
it, is ``games.store.records``).

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
from games.store import records, row_reads, rows, state_cache
from games.store.row_reads import game_key


def game_get(game_id: int) -> Game:
    """The game's row: read with a cursor (``row_reads``), the ORM's model machinery costs
    three times the round trip here, and this is under every snapshot load."""
    game = row_reads.game_row(game_key(game_id))
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return game


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
    return records.record_from_log(game).state


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
