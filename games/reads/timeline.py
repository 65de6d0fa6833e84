"""Reads of a game's past: its events in words and its board at every step, for one viewer.

A *step* is a point of the game after its start: step 0 is the deal (``GameStarted``), step N
the game after the N-th event that followed it (an action, a resignation, the end...). The
engine rebuilds every step from the events; a viewer gets each step through ``view``, for their
own seat while the game runs (exactly what the live page showed them then) and with everything
revealed once it is over. The private states never leave this module.

The words of a game's events are the same for every viewer (while a game runs, every viewer
reads the events as a spectator does: without the setup), and they change only with the game's
version, so they are worked out once per version and kept in Django's cache (a finished game's
never change). A board is then the engine's fold of the logged actions up to the step asked
for, through its trusted path: every logged action was checked when it was played.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache

from games import engine
from games.errors import GameNotFound, GameNotOver
from games.models import Game, Seat
from games.reads.access import Viewer, can_view, seat_for_viewer
from games.reads.game_view import event_json, seats_json
from games.records import projection
from games.records.record import Event
from games.variants import describe_event, game_for
from games.vocabulary import EventKind, Status

WORDS_CACHE_SECONDS = 24 * 3600
"""How long a game version's words stay cached; a new version has a new key anyway."""

_EVENT_FIELDS = ("seq", "kind", "payload", "seat", "created_at", "schema_version")


@dataclass(frozen=True)
class GameLog:
    """What every viewer reads alike of one version of a game: what is cached."""

    events: list[dict[str, Any]]
    """Every event, redacted while the game runs, each with its ``consequences`` and ``text``."""
    first_step: int
    """The index in ``events`` of ``GameStarted`` (step 0); ``len(events)`` if not started."""
    actions: list[dict[str, Any] | None]
    """The action of each step after the deal (``actions[n - 1]`` makes step n), else None."""
    setup: dict[str, Any] | None
    """The setup once it may be read by all (the game is over); None while it runs."""


@dataclass
class Timeline:
    """A game's events as one viewer may read them, and its private state at any step."""

    game: Game
    viewer_seat: int | None
    seats: list[dict[str, Any]]
    names: list[str]
    log: GameLog
    log_key: str
    """The cache key of ``log``: it names one version of the game."""
    _folded: list[engine.State] = field(default_factory=list, repr=False)
    """The private states of steps 0, 1, ... worked out so far (folded on demand)."""

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.log.events

    @property
    def first_step(self) -> int:
        return self.log.first_step

    @property
    def last_step(self) -> int:
        """The last step (-1 for a game that has not started)."""
        return len(self.log.events) - self.log.first_step - 1

    @property
    def reveals_all(self) -> bool:
        return not self.game.is_running

    @property
    def states(self) -> list[engine.State]:
        """The private state after each step: ``states[n]`` is the game at step n."""
        if self.last_step >= 0:
            self.state_at(self.last_step)
        return self._folded

    def step_event(self, step: int) -> dict[str, Any]:
        return self.log.events[self.log.first_step + step]

    def state_at(self, step: int) -> engine.State:
        """The private state at ``step`` (0 <= step <= last_step), folded from the deal."""
        folded = self._folded
        if not folded:
            folded.append(engine.initial_state(engine.setup_from_json(self._setup())))
        state = folded[-1]
        variant = self.game.variant
        for action in self.log.actions[len(folded) - 1 : step]:
            if action is not None:
                state = engine.apply_legal(state, engine.action_from_json(action, variant))
            folded.append(state)
        return folded[step]

    def view_at(self, step: int) -> dict[str, Any]:
        """What the viewer sees of the board at ``step``: their seat's view, or all once over."""
        return engine.view(self.state_at(step), self.viewer_seat, reveal=self.reveals_all)

    def revealed(self) -> dict[str, Any] | None:
        """The shuffle check of a game that is over: its setup, salt and commitment."""
        if not self.reveals_all or self.last_step < 0:
            return None
        payload = self.step_event(0)["payload"]
        return {key: payload.get(key) for key in ("setup", "salt", "commitment")}

    def _setup(self) -> Any:
        if self.log.setup is not None:
            return self.log.setup
        # A running game's setup is read for the fold and never kept beyond this request.
        started = self.game.events.filter(kind=EventKind.GAME_STARTED)
        kind, version, payload = started.values_list("kind", "schema_version", "payload").get()
        return projection.upcast(kind, version, payload)["setup"]


def game_timeline_for_viewer(game: Game, viewer: Viewer, *, upto: int | None = None) -> Timeline:
    """The game's history for ``viewer``. ``upto`` is a hint of old: boards fold on demand."""
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game.pk}.")
    # The names the game page shows now (bots of one level numbered), so its words agree.
    seats = seats_json(Seat.objects.filter(game=game).select_related("user__profile"))
    names = [seat["display_name"] or f"Seat {seat['index'] + 1}" for seat in seats]
    folded: list[engine.State] = []
    return Timeline(
        game=game,
        viewer_seat=seat_for_viewer(game, viewer),
        seats=seats,
        names=names,
        log=game_log(game, names, folded=folded),
        log_key=log_key(game, names),
        _folded=folded,
    )


def finished_game_timeline(game: Game) -> Timeline:
    """The whole history of a finished game for a task working for viewers already allowed to
    see it (a game's analysis): every private state, as any viewer of a game that is over may
    have them. A game still running is refused (``GameNotOver``): its states are nobody's."""
    if game.is_running or game.status != Status.FINISHED:
        raise GameNotOver(f"Game {game.pk} is not finished.")
    seats = seats_json(Seat.objects.filter(game=game).select_related("user__profile"))
    names = [seat["display_name"] or f"Seat {seat['index'] + 1}" for seat in seats]
    folded: list[engine.State] = []
    return Timeline(
        game=game,
        viewer_seat=None,
        seats=seats,
        names=names,
        log=game_log(game, names, folded=folded),
        log_key=log_key(game, names),
        _folded=folded,
    )


def game_log(
    game: Game, names: Sequence[str], *, folded: list[engine.State] | None = None
) -> GameLog:
    """The game's events in words at its current version, from the cache when it has them.

    A log worked out here folds every step on the way: ``folded`` (a list) then receives
    those private states, so that a board of this request is not folded a second time.
    """
    key = log_key(game, names)
    log = cache.get(key)
    if log is None:
        rows = game.events.order_by("seq").values_list(*_EVENT_FIELDS)
        events = (Event(*row) for row in rows)
        log = build_log(game, events, names=names, folded=folded)
        cache.set(key, log, WORDS_CACHE_SECONDS)
    return log


def log_key(game: Game, names: Sequence[str]) -> str:
    # The names are in the key: the words name the seats, and a seat may change hands.
    created = game.created_at.timestamp() if game.created_at else 0
    seated = "\x1f".join(names)
    identity = f"{game.pk}:{created}:{game.version}:{game.status}:{seated}"
    return "timeline:" + hashlib.sha256(identity.encode()).hexdigest()


def build_log(
    game: Game,
    rows: Any,
    *,
    names: Sequence[str],
    folded: list[engine.State] | None = None,
) -> GameLog:
    """Fold ``rows`` (the game's events by seq) once: every event's words and every move;
    the private state of every step goes into ``folded`` when given."""
    steps: list[engine.State] = [] if folded is None else folded
    presenter = game_for(game.variant)
    redact = game.is_running
    events: list[dict[str, Any]] = []
    actions: list[dict[str, Any] | None] = []
    first_step: int | None = None
    setup: dict[str, Any] | None = None
    state: engine.State | None = None
    for row in rows:
        event = event_json(row, redact=redact)
        payload = projection.upcast(row.kind, row.schema_version, row.payload)
        consequences: list[dict[str, Any]] = []
        action: dict[str, Any] | None = None
        if row.kind == EventKind.GAME_STARTED:
            state = engine.initial_state(engine.setup_from_json(payload["setup"]))
            first_step = len(events)
            setup = None if redact else payload["setup"]
        elif row.kind == EventKind.ACTION_TAKEN and state is not None:
            before = state
            action = payload["action"]
            state = engine.apply_legal(state, engine.action_from_json(action, game.variant))
            consequences = presenter.consequences(before, state, row.seat)
        event["consequences"] = consequences
        event["text"] = describe_event(event, names, variant=game.variant)
        events.append(event)
        if first_step is not None and len(events) - 1 > first_step:
            actions.append(action)
        if state is not None:
            steps.append(state)
    return GameLog(
        events=events,
        first_step=len(events) if first_step is None else first_step,
        actions=actions,
        setup=setup,
    )


def game_events_in_words(game: Game, viewer: Viewer) -> list[dict[str, Any]]:
    """Every event the viewer may read, each with its sentence (the History page)."""
    return game_timeline_for_viewer(game, viewer).events


def replay_step_for_viewer(game: Game, viewer: Viewer, step: int) -> dict[str, Any]:
    """The game at ``step`` as ``viewer`` may see it; a step that does not exist is a 404.

    A game one may not see is the same 404 as a missing game; in a game one may see, a step
    past the end is a 404 that names the last step (which the viewer may read anyway).
    """
    timeline = game_timeline_for_viewer(game, viewer)
    check_step(timeline, step)
    return replay_data(timeline, step)


def check_step(timeline: Timeline, step: int | None) -> None:
    """Refuse a step the game does not have (None: not a whole number) with words that say
    which steps it has, without claiming the game itself is missing."""
    if step is not None and 0 <= step <= timeline.last_step:
        return
    game_id = timeline.game.pk
    if timeline.last_step < 0:
        raise GameNotFound(f"Game {game_id} has not started: it has no steps to replay yet.")
    steps = f"its steps run from 0 (the deal) to {timeline.last_step}, the last one"
    if step is None:
        raise GameNotFound(f"A step is a whole number: in game {game_id}, {steps}.")
    raise GameNotFound(f"Game {game_id} has no step {step}: {steps}.")


def replay_data(timeline: Timeline, step: int) -> dict[str, Any]:
    """One step as the replay viewer and the API show it."""
    game = timeline.game
    state = timeline.state_at(step)
    event = timeline.step_event(step)
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "step": step,
        "last_step": timeline.last_step,
        "viewer_seat": timeline.viewer_seat,
        "seats": timeline.seats,
        "acting_seat": engine.acting_seat(state),
        "event": event,
        "text": event["text"],
        "state": timeline.view_at(step),
        "revealed": timeline.reveals_all,
    }


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
