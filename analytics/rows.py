"""A game's facts as rows of ``GameFacts`` and ``SeatFacts``, in the order of their fields.

One spelling for both writers: the rebuild's COPY (JSON as text) and counting one game through
the ORM (JSON as values).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from analytics.facts import GameFact

FACT_FIELDS = (
    "game_id",
    "variant",
    "player_count",
    "with_bots",
    "finished_at",
    "rounds",
    "ended_by",
    "is_rated",
    "facts",
)
SEAT_FIELDS = (
    "game_id",
    "seat",
    "user_id",
    "bot_level",
    "display_name",
    "points",
    "won",
    "rank",
    "cards",
    "colours",
)
Row = tuple[Any, ...]


def fact_row(fact: GameFact, as_json: Callable[[Any], Any]) -> Row:
    facts = as_json(fact.variant_facts_json())
    return (
        fact.game_id,
        fact.variant,
        fact.player_count,
        fact.with_bots,
        fact.finished_at,
        fact.rounds,
        fact.ended_by,
        fact.is_rated,
        facts,
    )


def seat_rows(fact: GameFact, as_json: Callable[[Any], Any]) -> Iterator[Row]:
    for seat in fact.seats:
        yield (
            fact.game_id,
            seat.seat,
            seat.user_id,
            seat.bot_level,
            seat.display_name,
            seat.points,
            seat.won,
            seat.rank,
            as_json(list(seat.cards)),
            as_json(seat.colours),
        )
