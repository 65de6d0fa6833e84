"""Reads of a game's past: its events in words and its board at every step, for one viewer.

A *step* is a point of the game after its start: step 0 is the deal (``GameStarted``), step N
the game after the N-th event that followed it (an action, a resignation, the end...). The
engine rebuilds every step from the events; a viewer gets each step through ``view``, for their
own seat while the game runs (exactly what the live page showed them then) and with everything
revealed once it is over. The private states never leave this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import engine, projection
from games.describe import describe_event
from games.errors import GameNotFound
from games.models import Game, GameEvent, Seat
from games.presenters import presenter_for
from games.selectors import Viewer, _event_json, _seat_json, can_view, seat_for_viewer


@dataclass(frozen=True)
class Timeline:
    """A game's events as one viewer may read them, with the private state after each step."""

    game: Game
    viewer_seat: int | None
    seats: list[dict[str, Any]]
    names: list[str]
    events: list[dict[str, Any]]
    """Every event, redacted while the game runs, each with its ``consequences`` and ``text``."""
    first_step: int
    """The index in ``events`` of ``GameStarted`` (step 0); ``len(events)`` if not started."""
    states: list[engine.State]
    """The private state after each step: ``states[n]`` is the game at step n."""

    @property
    def last_step(self) -> int:
        return len(self.states) - 1

    @property
    def reveals_all(self) -> bool:
        return not self.game.is_running

    def step_event(self, step: int) -> dict[str, Any]:
        return self.events[self.first_step + step]

    def view_at(self, step: int) -> dict[str, Any]:
        """What the viewer sees of the board at ``step``: their seat's view, or all once over."""
        state = self.states[step]
        return engine.view(state, self.viewer_seat, reveal=self.reveals_all)


def game_timeline_for_viewer(game: Game, viewer: Viewer, *, upto: int | None = None) -> Timeline:
    """The game's history for ``viewer``; ``upto`` stops after that many steps (for speed)."""
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game.pk}.")
    seats = [_seat_json(seat) for seat in Seat.objects.filter(game=game).order_by("index")]
    names = [seat["display_name"] or f"Seat {seat['index'] + 1}" for seat in seats]
    return build_timeline(
        game,
        game.events.order_by("seq"),
        seats=seats,
        names=names,
        viewer_seat=seat_for_viewer(game, viewer),
        upto=upto,
    )


def build_timeline(
    game: Game,
    rows: Sequence[GameEvent] | Any,
    *,
    seats: list[dict[str, Any]],
    names: list[str],
    viewer_seat: int | None,
    upto: int | None = None,
) -> Timeline:
    presenter = presenter_for(game.variant)
    redact = game.is_running
    events: list[dict[str, Any]] = []
    states: list[engine.State] = []
    first_step: int | None = None
    state: engine.State | None = None
    for row in rows:
        event = _event_json(row, redact=redact)
        payload = projection.upcast(row.kind, row.schema_version, row.payload)
        consequences: list[dict[str, Any]] = []
        if row.kind == GameEvent.Kind.GAME_STARTED:
            state = engine.initial_state(engine.setup_from_json(payload["setup"]))
            first_step = len(events)
        elif row.kind == GameEvent.Kind.ACTION_TAKEN and state is not None:
            before = state
            state = engine.apply_action(
                state, engine.action_from_json(payload["action"], game.variant)
            )
            consequences = presenter.consequences(before, state, row.seat)
        event["consequences"] = consequences
        event["text"] = describe_event(event, names, variant=game.variant)
        events.append(event)
        if first_step is not None and state is not None:
            states.append(state)
            if upto is not None and len(states) > upto:
                break
    return Timeline(
        game=game,
        viewer_seat=viewer_seat,
        seats=seats,
        names=names,
        events=events,
        first_step=len(events) if first_step is None else first_step,
        states=states,
    )


def game_events_in_words(game: Game, viewer: Viewer) -> list[dict[str, Any]]:
    """Every event the viewer may read, each with its sentence (the History page)."""
    return game_timeline_for_viewer(game, viewer).events


def replay_step_for_viewer(game: Game, viewer: Viewer, step: int) -> dict[str, Any]:
    """The game at ``step`` as ``viewer`` may see it; a step that does not exist is a 404.

    The same 404 as a missing game: probing steps tells nothing about a game one may not see.
    """
    if step < 0:
        raise GameNotFound(f"There is no game {game.pk}.")
    timeline = game_timeline_for_viewer(game, viewer, upto=step)
    if step > timeline.last_step:
        raise GameNotFound(f"There is no game {game.pk}.")
    return replay_data(timeline, step)


def replay_data(timeline: Timeline, step: int) -> dict[str, Any]:
    """One step as the replay viewer and the API show it."""
    game = timeline.game
    state = timeline.states[step]
    event = timeline.step_event(step)
    steps = game.version - _seq_of_start(timeline) if timeline.states else 0
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "step": step,
        "last_step": steps,
        "viewer_seat": timeline.viewer_seat,
        "seats": timeline.seats,
        "acting_seat": engine.acting_seat(state),
        "event": event,
        "text": event["text"],
        "state": timeline.view_at(step),
        "revealed": timeline.reveals_all,
    }


def _seq_of_start(timeline: Timeline) -> int:
    return int(timeline.events[timeline.first_step]["seq"])


def replay_moves(timeline: Timeline) -> list[dict[str, Any]]:
    """The move list beside the board: each step's number and words."""
    return [
        {"step": index, "seq": event["seq"], "text": event["text"], "seat": event["seat"]}
        for index, event in enumerate(timeline.events[timeline.first_step :])
    ]


def table_data_for_step(data: Mapping[str, Any]) -> dict[str, Any]:
    """A step in the shape the game page's table presenter reads, without any control."""
    return {
        "id": data["id"],
        "variant": data["variant"],
        "status": "replay",
        "version": data["step"],
        "viewer_seat": data["viewer_seat"],
        "acting_seat": data["acting_seat"],
        "seats": data["seats"],
        "state": data["state"],
        "legal_actions": [],
    }
