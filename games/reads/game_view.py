"""A game as one viewer sees it: every page, API response, email and bot sees it through these.

While a game runs, a viewer gets the engine's redacted ``view`` for their seat and an event
history without the setup (seed, deck order, salt). Once it is over (finished or aborted),
everything is revealed, so anyone can check the shuffle against the published commitment.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from games import engine
from games.errors import GameNotFound
from games.models import Game, GameEvent, Seat
from games.reads import loading, results
from games.reads.access import Viewer, can_view, seat_for_viewer
from games.records import projection
from games.vocabulary import EventKind, Status

HIDDEN_SETUP_FIELDS = ("setup", "salt")
"""GameStarted payload fields that stay private while the game runs."""


def game_view_for_viewer(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The whole game as ``viewer`` may see it: seats, status, and the engine's view."""
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game.pk}.")
    seat = seat_for_viewer(game, viewer)
    state = loading.game_state(game)
    running = game.is_running
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    view = None if state is None else engine.view(state, seat, reveal=not running)
    data: dict[str, Any] = {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "version": game.version,
        "is_public": game.is_public,
        "created_at": game.created_at.isoformat(),
        "seats": seats_json(seats),
        "viewer_seat": seat,
        "acting_seat": game.acting_seat,
        "commitment": game.commitment or None,
        "result": results.result_in_full(
            game.variant, game.result, seats, view["players"] if view and not running else []
        ),
        "move_seconds": game.move_seconds,
        "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        "state": view,
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
        state = loading.game_state(game)
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
    return [event_json(event, redact=running) for event in events]


def seats_json(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """The seats in order, each with the name to show now (see ``_names_now``)."""
    ordered = sorted(seats, key=lambda seat: seat.index)
    names = _names_now(ordered)
    return [seat_json(seat, name) for seat, name in zip(ordered, names, strict=True)]


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


def seat_json(seat: Seat, name: str | None = None) -> dict[str, Any]:
    """One seat as every reader shows it (a game, a list's row, a history): ``name`` instead
    of the name recorded when the seat was taken, if given."""
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


def event_json(event: GameEvent, *, redact: bool) -> dict[str, Any]:
    """One event as a viewer reads it; ``redact`` while the game runs (see
    ``event_payload_for_spectator``)."""
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
    state = loading.game_state(game)
    assert state is not None
    return game.acting_seat, level, engine.view(state, game.acting_seat)
