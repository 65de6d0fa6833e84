"""A whole game in the notation of ``docs/notation.md``: the export and the checked import.

The export is the setup plus every move, enough to replay the game with the engine; the
import replays such a document move by move and refuses it, naming the first bad step, unless
every move is legal and the result it reaches is the one the file states. Nothing here touches
the database.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games import engine
from games.records import projection
from games.records.record import GameRecord
from games.vocabulary import BotLevel, EventKind

FORMAT = "splendor-online/game/1"
MAX_MOVES = 5000
"""More moves than any real game makes (random play ends within a few hundred)."""


IMPORTED_NOTE = (
    "Imported from an uploaded file, not played here: the players' names are the file's text, "
    "not accounts on this site."
)
"""How every page and export marks an imported game."""


class ImportRefused(ValueError):
    """The document does not replay; the message names the first bad step."""


def export_document(
    *,
    game: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    events: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The game as a document: ``events`` as a viewer may read them (redacted while running).

    Moves are the events that change the game after its start: actions and resignations.
    """
    started = next((event for event in events if event["kind"] == EventKind.GAME_STARTED), None)
    payload = started["payload"] if started else {}
    moves: list[dict[str, Any]] = []
    for event in events:
        if event["kind"] == EventKind.ACTION_TAKEN:
            moves.append({"seat": event["seat"], "action": event["payload"]["action"]})
        elif event["kind"] == EventKind.PLAYER_RESIGNED:
            moves.append({"seat": event["payload"]["seat"], "resign": True})
    return {
        "format": FORMAT,
        "variant": game["variant"],
        "game": game["id"],
        "status": game["status"],
        "origin": game.get("origin"),
        "seats": [
            {"name": seat["display_name"], "bot_level": seat.get("bot_level") or None}
            for seat in seats
        ],
        "setup": payload.get("setup"),
        "salt": payload.get("salt"),
        "commitment": payload.get("commitment"),
        "moves": moves,
        "result": game.get("result"),
        "started_at": _timestamp(started["created_at"]) if started else None,
        "finished_at": _timestamp(game.get("finished_at")),
    }


def _timestamp(value: str | None) -> str | None:
    """ISO 8601 in UTC with microseconds always written: one spelling for every export."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value).astimezone(UTC)
    return moment.isoformat(timespec="microseconds")


def text_log(document: Mapping[str, Any], lines: Sequence[str]) -> str:
    """The readable export: a header, then one numbered line per event from the start on."""
    names = [seat["name"] for seat in document["seats"]]
    head = [
        f"Splendor Online game {document['game']} ({document['variant']})",
        "Players: " + ", ".join(names),
    ]
    if (document.get("origin") or {}).get("kind") == "import":
        head.insert(1, IMPORTED_NOTE)
    if document.get("commitment"):
        head.append(f"Shuffle commitment: {document['commitment']}")
    if document.get("setup"):
        head.append(f"Seed: {document['setup']['seed']}  Salt: {document['salt']}")
    body = [f"{number}. {line}" for number, line in enumerate(lines)]
    return "\n".join([*head, "", *body]) + "\n"


@dataclass(frozen=True)
class ReplayedGame:
    """A document that replays: what the import service records."""

    variant: str
    setup: engine.Setup
    seats: list[dict[str, Any]]
    moves: list[dict[str, Any]]
    result: dict[str, Any]
    salt: str
    states: list[engine.State]


def replay(document: Any) -> ReplayedGame:
    """Replay a document through the engine; refuse it at the first step that does not work."""
    variant, setup, state = _opening(document)
    seat_count = len(engine.view(state, None)["players"])
    seats = _seats(document.get("seats"), seat_count)
    moves = document.get("moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise ImportRefused(f"moves must be a list of at most {MAX_MOVES} moves.")
    states = [state]
    resigned: list[int] = []
    recorded: list[dict[str, Any]] = []
    for step, move in enumerate(moves, start=1):
        if _result(variant, seat_count, state, resigned) is not None:
            raise ImportRefused(f"Step {step}: the game was already over.")
        state, item = _replay_move(step, move, state, variant, seat_count, resigned)
        states.append(state)
        recorded.append(item)
    result = _result(variant, seat_count, state, resigned)
    if result is None:
        raise ImportRefused(
            f"Step {len(moves) + 1}: the file ends before the game is over (is it truncated?)."
        )
    stated = document.get("result")
    if stated is not None and _comparable(stated) != _comparable(result):
        raise ImportRefused(
            f"Step {len(moves)}: the file says the result is {json.dumps(stated)}, "
            f"but replaying the moves gives {json.dumps(result)}."
        )
    salt = document.get("salt")
    return ReplayedGame(
        variant=variant,
        setup=setup,
        seats=seats,
        moves=recorded,
        result=result,
        salt=salt if isinstance(salt, str) and 0 < len(salt) <= 64 else "",
        states=states,
    )


def _opening(document: Any) -> tuple[str, engine.Setup, engine.State]:
    """The document's variant, setup and first state, or the refusal of step 0."""
    if not isinstance(document, Mapping):
        raise ImportRefused("The file must hold one JSON object, a game in our notation.")
    if document.get("format") != FORMAT:
        raise ImportRefused(f"Unknown format {document.get('format')!r}: expected {FORMAT!r}.")
    variant = document.get("variant")
    if variant not in engine.VARIANTS:
        raise ImportRefused(
            f"Unknown variant {variant!r}: this site plays {', '.join(engine.VARIANTS)}."
        )
    try:
        setup = engine.setup_from_json(document.get("setup"))
        state = engine.initial_state(setup)
    except (engine.IllegalAction, TypeError, KeyError) as error:
        raise ImportRefused(f"Step 0 (the setup): {error}.") from None
    if isinstance(document.get("setup"), Mapping) and document["setup"].get("variant") != variant:
        raise ImportRefused("Step 0 (the setup): its variant is not the document's.")
    return variant, setup, state


def _replay_move(
    step: int,
    move: Any,
    state: engine.State,
    variant: str,
    seat_count: int,
    resigned: list[int],
) -> tuple[engine.State, dict[str, Any]]:
    if not isinstance(move, Mapping) or type(move.get("seat")) is not int:
        raise ImportRefused(f"Step {step}: a move is an object with a seat number.")
    seat = move["seat"]
    if not 0 <= seat < seat_count:
        raise ImportRefused(f"Step {step}: there is no seat {seat}.")
    if move.get("resign") is True:
        if seat in resigned:
            raise ImportRefused(f"Step {step}: seat {seat} has already resigned.")
        resigned.append(seat)
        return state, {"seat": seat, "resign": True}
    acting = engine.acting_seat(state)
    if seat != acting:
        raise ImportRefused(f"Step {step}: it is seat {acting}'s turn, not seat {seat}'s.")
    try:
        action = engine.action_from_json(move.get("action"), variant)
        state = engine.apply_action(state, action)
    except engine.IllegalAction as error:
        raise ImportRefused(f"Step {step}: {error}.") from None
    return state, {"seat": seat, "action": engine.action_to_json(action)}


def _seats(seats: Any, seat_count: int) -> list[dict[str, Any]]:
    if not isinstance(seats, list) or len(seats) != seat_count:
        raise ImportRefused(f"seats must list the setup's {seat_count} players.")
    checked = []
    for index, seat in enumerate(seats):
        name = seat.get("name") if isinstance(seat, Mapping) else None
        if not isinstance(name, str) or not 0 < len(name.strip()) <= 150:
            raise ImportRefused(f"Seat {index} needs a name of 1 to 150 characters.")
        level = seat.get("bot_level")
        if level not in (None, *BotLevel):
            raise ImportRefused(f"Seat {index}: unknown bot level {level!r}.")
        checked.append({"name": name.strip(), "bot_level": level})
    return checked


def _result(
    variant: str, seat_count: int, state: engine.State, resigned: list[int]
) -> dict[str, Any] | None:
    record = GameRecord(
        variant=variant,
        seat_count=seat_count,
        options={},
        is_public=True,
        created_by_id=None,
        seats=(),
        state=state,
        resigned=tuple(resigned),
    )
    return projection.result_of(record)


def _comparable(result: Any) -> Any:
    return json.loads(json.dumps(result, sort_keys=True))
