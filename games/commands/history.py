"""Commands on games' history: importing a game from a file, forking one from a position.

Both write through the same writer as every other command (``games.commands.writer``): events
folded by the projection, read models saved in the same transaction, nothing written on a refusal.
Imported and forked games carry ``origin``, so statistics can leave them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import engine
from games.commands import limits
from games.commands.lobby import SeatRequest, game_create
from games.commands.writer import GameWriter
from games.errors import ImportRejected, InvalidRequest, NotAllowed
from games.models import Game
from games.notation import document as notation
from games.reads.loading import game_get
from games.reads.timeline import check_step, game_timeline_for_viewer
from games.vocabulary import EventKind, Status

IMPORT_ORIGIN = {"kind": "import"}


def game_import(
    *, document: Any, uploaded_by: AbstractBaseUser | None, is_public: bool = True
) -> Game:
    """Record a finished game from a document in our notation, after replaying it in full.

    The import counts against ``uploaded_by``'s hourly cap on new games (``games.commands.limits``).
    Its seats are the file's names, as text: no seat is a registered player's, whatever it is
    called, so the game is in nobody's list of games and in nobody's statistics.
    """
    try:
        replayed = notation.replay(document)
    except notation.ImportRefused as error:
        raise ImportRejected(str(error)) from None
    seat_count = len(replayed.seats)
    with transaction.atomic():
        if uploaded_by is not None:
            limits.check_can_add_a_game(uploaded_by)
        writer = GameWriter.create(variant=replayed.variant, seat_count=seat_count,
                                   is_public=is_public, created_by=uploaded_by, options={},
                                   origin=dict(IMPORT_ORIGIN))  # fmt: skip
        writer.append(
            EventKind.GAME_CREATED,
            {
                "variant": replayed.variant,
                "seat_count": seat_count,
                "options": {},
                "is_public": is_public,
                "created_by": uploaded_by.pk if uploaded_by else None,
                "origin": dict(IMPORT_ORIGIN),
            },
            actor=uploaded_by,
        )
        _append_the_file(writer, replayed)
        if writer.record.status != Status.FINISHED:
            raise ImportRejected("The file's moves do not finish the game.")
        writer.save()
    return writer.game


def _append_the_file(writer: GameWriter, replayed: notation.ReplayedGame) -> None:
    """The file's seats, by name, its setup and its moves, as events."""
    for index, seat in enumerate(replayed.seats):
        if seat["bot_level"]:
            payload = {"seat": index, "level": seat["bot_level"], "display_name": seat["name"]}
            writer.append(EventKind.BOT_ADDED, payload, seat=index)
        else:
            payload = {"seat": index, "user": None, "display_name": seat["name"]}
            writer.append(EventKind.SEAT_TAKEN, payload, seat=index)
    writer.start_with(engine.setup_to_json(replayed.setup), replayed.salt or None)
    for move in replayed.moves:
        if move.get("resign"):
            writer.append(EventKind.PLAYER_RESIGNED, {"seat": move["seat"]}, seat=move["seat"])
        else:
            writer.append(EventKind.ACTION_TAKEN, {"action": move["action"]}, seat=move["seat"])
    writer.finish_if_over()


def fork_position_for_viewer(game: Game, viewer: Any, step: int) -> dict[str, Any]:
    """The position at ``step`` that ``viewer`` may start a new game from.

    A finished game's every step, revealed; a running game's past only for a spectator, as a
    spectator saw it (a seated player would carry their hidden knowledge into the fork).
    """
    timeline = game_timeline_for_viewer(game, viewer, upto=step)
    check_step(timeline, step)
    if game.status == Status.ACTIVE and timeline.viewer_seat is not None:
        raise NotAllowed("You are playing this game: fork it once it is over.")
    return engine.view(timeline.states[step], None, reveal=timeline.reveals_all)


def game_fork(
    *,
    game_id: int,
    step: int,
    user: AbstractBaseUser,
    seats: Sequence[SeatRequest],
    is_public: bool = True,
) -> Game:
    """A new game that begins at ``step`` of game ``game_id``, its unseen cards reshuffled."""
    game = game_get(game_id)
    position = fork_position_for_viewer(game, user, step)
    if len(seats) != len(position["players"]):
        raise InvalidRequest(f"This position needs {len(position['players'])} seats.")
    try:
        engine.setup_from_position(position, 0)  # refuses a position with nothing to play
    except engine.IllegalAction as error:
        raise InvalidRequest(str(error)) from None
    return game_create(
        variant=game.variant,
        seats=seats,
        created_by=user,
        is_public=is_public,
        origin={"kind": "fork", "game": game.pk, "step": step},
        start_position=position,
    )
