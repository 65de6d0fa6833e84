"""From a game's event log to its ``GameFact``: the shared half of every variant's fold.

Lobby events say who sat where; ``GameFinished`` says who won and how the game ended; the
game's own fold (its analytics facts, found by ``analytics.variants``) turns the actions into
what was seen and bought. A game that is not finished (running, or aborted) has no facts: it
contributes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from analytics.facts import GameFact, SeatFact, ranks_of
from analytics.variants import analytics_for
from games import engine
from games.records.projection import upcast
from games.records.record import CURRENT_SCHEMA_VERSION
from games.variants.play_facts import PlayedAction
from games.vocabulary import EventKind

EventRow = tuple[str, str, int | None, datetime | None, int]
"""(kind, payload as JSON text, seat, created_at, schema_version), in seq order; only the time
of the ``GameFinished`` event is read (``analytics.event_log`` gives ``None`` for the others)."""

ACTION_TAKEN = EventKind.ACTION_TAKEN
_ACTIONS_KEPT = 20_000
_actions: dict[tuple[str, str], tuple[Any, str]] = {}
"""Parsed actions by their payload's text: a game's log repeats a few hundred distinct actions
(take these gems, buy that card), so each is parsed once per process, not once per event."""


def game_fact(game_id: int, events: Iterable[EventRow]) -> GameFact | None:
    variant = ""
    origin: Mapping[str, Any] | None = None
    seats: list[dict[str, Any]] = []
    setup: Mapping[str, Any] | None = None
    actions: list[PlayedAction] = []
    result: Mapping[str, Any] | None = None
    finished_at: datetime | None = None
    for kind, text, seat, created_at, schema_version in events:
        if kind == ACTION_TAKEN and schema_version == CURRENT_SCHEMA_VERSION:
            actions.append((seat, *_action(variant, text)))
            continue
        payload = upcast(kind, schema_version, json.loads(text))
        match kind:
            case EventKind.GAME_CREATED:
                variant, origin = payload["variant"], payload.get("origin")
                seats = [_empty_seat() for _ in range(payload["seat_count"])]
            case EventKind.SEAT_TAKEN:
                seats[payload["seat"]] = {
                    "user_id": payload["user"],
                    "bot_level": "",
                    "display_name": payload["display_name"],
                }
            case EventKind.BOT_ADDED:
                seats[payload["seat"]] = {
                    "user_id": None,
                    "bot_level": payload["level"],
                    "display_name": payload["display_name"],
                }
            case EventKind.SEAT_LEFT:
                seats[payload["seat"]] = _empty_seat()
            case EventKind.GAME_STARTED:
                setup = payload["setup"]
            case EventKind.ACTION_TAKEN:
                action_json = payload["action"]
                action = engine.action_from_json(action_json, variant)
                actions.append((seat, action, action_json["type"]))
            case EventKind.GAME_FINISHED:
                result, finished_at = payload["result"], created_at
            case EventKind.GAME_ABORTED:
                return None
    if result is None or setup is None or finished_at is None:
        return None
    play = analytics_for(variant).fold(setup, actions)
    count = len(seats)
    points, cards_bought = list(result["points"]), list(result["cards_bought"])
    winners, resigned = list(result["winners"]), list(result.get("resigned", []))
    ranks = ranks_of(points, cards_bought, winners, resigned)
    bought: list[list[int]] = [[] for _ in range(count)]
    for card, buyer, _turn in play.purchases:
        bought[buyer].append(card)
    seat_facts = []
    for index, seat_info in enumerate(seats):
        seat_facts.append(
            SeatFact(
                seat=index,
                user_id=seat_info["user_id"],
                bot_level=seat_info["bot_level"],
                display_name=seat_info["display_name"],
                points=points[index],
                won=index in winners,
                rank=ranks[index],
                cards=tuple(bought[index]),
                colours=play.colours[index],
                actions=play.actions[index],
            )
        )
    return GameFact(
        game_id=game_id,
        variant=variant,
        player_count=count,
        finished_at=finished_at,
        rounds=-(-play.turns // count),
        ended_by=result["ended_by"],
        # Imported and forked games (``Game.origin``) did not start here from a fresh deal.
        is_rated=origin is None,
        seats=tuple(seat_facts),
        cards_seen=tuple(play.cards_seen),
        purchases=tuple(play.purchases),
        reserves=tuple(play.reserves),
        nobles_in_play=tuple(play.nobles_in_play),
        visits=tuple(play.visits),
        variant_tallies=_variant_tallies(play.seat_tallies, winners),
        first_seat=play.first_seat,
    )


def _variant_tallies(
    seat_tallies: list[dict[tuple[str, str], int]], winners: list[int]
) -> tuple[tuple[tuple[str, str], int], ...]:
    totals: dict[tuple[str, str], int] = {}
    for seat, counters in enumerate(seat_tallies):
        for (metric, item), amount in counters.items():
            keys = [(metric, item)] + ([(f"{metric}.won", item)] if seat in winners else [])
            for key in keys:
                totals[key] = totals.get(key, 0) + amount
    return tuple(sorted(totals.items()))


def _empty_seat() -> dict[str, Any]:
    return {"user_id": None, "bot_level": "", "display_name": ""}


def _action(variant: str, text: str) -> tuple[Any, str]:
    """The engine's action and its type, from an ``ActionTaken`` payload's text."""
    key = (variant, text)
    known = _actions.get(key)
    if known is None:
        action_json = json.loads(text)["action"]
        known = (engine.action_from_json(action_json, variant), action_json["type"])
        if len(_actions) >= _ACTIONS_KEPT:
            _actions.clear()
        _actions[key] = known
    return known
