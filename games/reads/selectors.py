"""Reads: every page, API response, email and bot sees games only through these.

While a game runs, a viewer gets the engine's redacted ``view`` for their seat and an event
history without the setup (seed, deck order, salt). Once it is over (finished or aborted),
everything is revealed, so anyone can check the shuffle against the published commitment.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from games import engine
from games.errors import GameNotFound
from games.models import Game, GameEvent, Seat
from games.records import projection
from games.records.record import GameRecord, SeatRecord
from games.store import row_reads, rows, state_cache
from games.vocabulary import EventKind, Status

Viewer = AbstractBaseUser | AnonymousUser | None

HIDDEN_SETUP_FIELDS = ("setup", "salt")
"""GameStarted payload fields that stay private while the game runs."""


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


def seat_for_viewer(game: Game, viewer: Viewer) -> int | None:
    """The seat index of ``viewer`` in ``game``, or None for a spectator."""
    if viewer is None or not viewer.is_authenticated:
        return None
    if getattr(game, "viewer_seat_of", None) == viewer.pk:
        return game.viewer_seat_index  # type: ignore[attr-defined, no-any-return]
    seat = Seat.objects.filter(game=game, user_id=viewer.pk).values_list("index", flat=True)
    return seat.first()


def can_view(game: Game, viewer: Viewer) -> bool:
    """Public games are open to everyone; private ones to their creator, players and staff."""
    return game.is_public or Game.objects.filter(_visible_to(viewer), pk=game.pk).exists()


def _visible_to(viewer: Viewer) -> Q:
    """The games ``viewer`` may see, as a filter: the one statement of that rule."""
    if viewer is None or not viewer.is_authenticated:
        return Q(is_public=True)
    if getattr(viewer, "is_staff", False):
        return Q()
    return Q(is_public=True) | _involves(viewer)


def _involves(viewer: AbstractBaseUser) -> Q:
    """Games ``viewer`` created or has a seat in."""
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=viewer.pk))
    return Q(created_by_id=viewer.pk) | Q(seated)


def game_view_for_viewer(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The whole game as ``viewer`` may see it: seats, status, and the engine's view."""
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game.pk}.")
    seat = seat_for_viewer(game, viewer)
    state = game_state(game)
    running = game.is_running
    data: dict[str, Any] = {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "version": game.version,
        "is_public": game.is_public,
        "created_at": game.created_at.isoformat(),
        "seats": _seats_json(Seat.objects.filter(game=game).select_related("user__profile")),
        "viewer_seat": seat,
        "acting_seat": game.acting_seat,
        "commitment": game.commitment or None,
        "result": game.result,
        "move_seconds": game.move_seconds,
        "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        "state": None if state is None else engine.view(state, seat, reveal=not running),
        "legal_actions": game_legal_actions_for_viewer(game, viewer, state=state),
    }
    if not running and state is not None:
        data["revealed"] = _revealed(game, state)
    return data


def game_legal_actions_for_viewer(
    game: Game, viewer: Viewer, *, state: engine.State | None = None
) -> list[dict[str, Any]]:
    """The viewer's legal actions in JSON, or none when the game does not wait for them."""
    if game.status != Status.ACTIVE or game.acting_seat is None:
        return []
    if seat_for_viewer(game, viewer) != game.acting_seat:
        return []
    if state is None:
        state = game_state(game)
    assert state is not None
    return [engine.action_to_json(action) for action in engine.legal_actions(state)]


def game_events_for_viewer(
    game: Game, viewer: Viewer, *, after_seq: int = 0, limit: int | None = None
) -> list[dict[str, Any]]:
    """The event history from ``after_seq`` on, redacted for ``viewer`` while the game runs."""
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game.pk}.")
    events: QuerySet[GameEvent] = game.events.filter(seq__gt=after_seq).order_by("seq")
    if limit is not None:
        events = events[:limit]
    running = game.is_running
    return [_event_json(event, redact=running) for event in events]


def _seats_json(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """The seats in order, each with the name to show now (see ``_names_now``)."""
    ordered = sorted(seats, key=lambda seat: seat.index)
    names = _names_now(ordered)
    return [_seat_json(seat, name) for seat, name in zip(ordered, names, strict=True)]


def _names_now(seats: list[Seat]) -> list[str]:
    """A player's current display name (not the one recorded when they sat down), and bots of
    one level told apart by number ("Greedy bot 1", "Greedy bot 2")."""
    names = []
    for seat in seats:
        if seat.user_id is not None and seat.user is not None:
            profile = getattr(seat.user, "profile", None)
            names.append((profile.display_name if profile else "") or seat.user.get_username())
        else:
            names.append(seat.display_name)
    repeated = {name for name in names if name and names.count(name) > 1}
    counters: dict[str, int] = {}
    for index, seat in enumerate(seats):
        if seat.bot_level and names[index] in repeated:
            counters[names[index]] = counters.get(names[index], 0) + 1
            names[index] = f"{names[index]} {counters[names[index]]}"
    return names


def _seat_json(seat: Seat, name: str | None = None) -> dict[str, Any]:
    return {
        "index": seat.index,
        "display_name": seat.display_name if name is None else name,
        "user_id": seat.user_id,
        "bot_level": seat.bot_level or None,
        "is_open": seat.is_open,
        "is_away": seat.is_away,
    }


def event_payload_for_spectator(event: GameEvent, *, game_is_running: bool) -> dict[str, Any]:
    """An event's payload as a spectator sees it: without the setup and salt while the game runs.

    Staff see events this way too (the admin): nobody may read the next cards of a running game.
    """
    payload = dict(projection.upcast(event.kind, event.schema_version, event.payload))
    if game_is_running and event.kind == EventKind.GAME_STARTED:
        for field in HIDDEN_SETUP_FIELDS:
            payload.pop(field, None)
    return payload


def _event_json(event: GameEvent, *, redact: bool) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "payload": event_payload_for_spectator(event, game_is_running=redact),
        "created_at": event.created_at.isoformat(),
    }


def _revealed(game: Game, state: engine.State) -> dict[str, Any]:
    started = game.events.filter(kind=EventKind.GAME_STARTED).first()
    payload = started.payload if started else {}
    return {
        "setup": payload.get("setup"),
        "salt": payload.get("salt"),
        "commitment": payload.get("commitment"),
        "final_state": engine.state_to_json(state),
    }


SEAT_RECORD_FIELDS = ("user_id", "bot_level", "display_name", "is_away", "timeouts_in_row")
"""A seat row's columns in the order of ``SeatRecord``'s fields."""


def game_bot_turn(game: Game) -> tuple[int, str, dict[str, Any]] | None:
    """The bot the game waits for: its seat, level and redacted view; None if it waits for none.

    A bot is a viewer like any other: it gets the engine's view for its own seat, never the state.
    """
    if game.status != Status.ACTIVE or game.acting_seat is None:
        return None
    level = (
        Seat.objects.filter(game=game, index=game.acting_seat)
        .values_list("bot_level", flat=True)
        .first()
    )
    if not level:
        return None
    state = game_state(game)
    assert state is not None
    return game.acting_seat, level, engine.view(state, game.acting_seat)


def game_version_for_viewer(game_id: int, viewer: Viewer) -> int | None:
    """The game's version if ``viewer`` may see the game, else None: one small query.

    What a page polls every two seconds: it must cost almost nothing when nothing changed.
    """
    games = Game.objects.filter(_visible_to(viewer), pk=game_id)
    # Unordered and sliced: no ORDER BY, one row, one column.
    return next(iter(games.order_by().values_list("version", flat=True)[:1]), None)


def is_seated(game_id: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` plays in the game (has a seat in it)."""
    if viewer is None or not viewer.is_authenticated:
        return False
    return Seat.objects.filter(game_id=game_id, user_id=viewer.pk).exists()


# Lists: the lobby, "my games", "my turn" ---------------------------------------------------


def game_list_for_viewer(
    viewer: Viewer,
    *,
    status: str | None = None,
    variant: str | None = None,
    mine: bool = False,
    my_turn: bool = False,
) -> QuerySet[Game]:
    """Games ``viewer`` may see (public ones, their own, all for staff), newest first."""
    games = Game.objects.defer("snapshot", "options").prefetch_related("seats__user__profile")
    games = games.filter(_visible_to(viewer))
    if (mine or my_turn) and (viewer is None or not viewer.is_authenticated):
        return games.none()  # a guest has no games of their own
    if status:
        games = games.filter(status=status)
    if variant:
        games = games.filter(variant=variant)
    if mine:
        games = games.filter(_involves(viewer))
    if my_turn:
        acting = Seat.objects.filter(
            game=OuterRef("pk"), user_id=viewer.pk, index=OuterRef("acting_seat")
        )
        games = games.filter(Exists(acting), status=Status.ACTIVE)
    return games.order_by("-created_at", "-id")


def game_summaries(games: Iterable[Game], viewer: Viewer) -> list[dict[str, Any]]:
    """Each game as a list shows it: status and seats, no board and no hands."""
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    return [_summary(game, viewer_id) for game in games]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _summary(game: Game, viewer_id: int | None) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.index)
    viewer_seat = next(
        (seat.index for seat in seats if viewer_id is not None and seat.user_id == viewer_id),
        None,
    )
    is_running = game.status == Status.ACTIVE
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "version": game.version,
        "is_public": game.is_public,
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": _seats_json(seats),
        "acting_seat": game.acting_seat,
        "viewer_seat": viewer_seat,
        "updated_at": game.updated_at.isoformat(),
        "turn_deadline": _iso(game.turn_deadline) if is_running else None,
        "last_move_at": _iso(game.turn_started_at if is_running else game.finished_at),
        "is_my_turn": is_running and viewer_seat is not None and viewer_seat == game.acting_seat,
        "result": game.result,
    }
