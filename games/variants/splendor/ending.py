"""How a game of the base game ends: most points after someone reached 15, then the fewest
cards bought, else a shared win; or a resignation (``games.variants.endings``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.endings import Ending, split_of_points

POINTS = "points"
"""One player had the most points."""
FEWEST_CARDS = "fewest_cards"
"""Tied on points; the one who bought the fewest cards won (the rulebook's tie-break)."""
SHARED = "shared"
"""Tied on points and on cards bought: the rules call it a shared win."""


def won_by(result: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The way is how the winner was decided (the end itself, 15 points reached or a round
    everybody passed, does not choose the winner)."""
    way: str = result["decided_by"]  # points, fewest_cards, shared, or resignation
    return {"won_by": way}


def _winner(result: Mapping[str, Any]) -> int:
    seat: int = result["winners"][0]
    return seat


def _points(count: int) -> str:
    return f"{count} point{'' if count == 1 else 's'}"


def _most_points(result: Mapping[str, Any], names: Sequence[str]) -> str:
    return _points(result["points"][_winner(result)])


def _fewest_cards(result: Mapping[str, Any], names: Sequence[str]) -> str:
    return f"{_points(result['points'][_winner(result)])}, fewest cards"


def _shared(result: Mapping[str, Any], names: Sequence[str]) -> str:
    seat = _winner(result)
    cards = result["cards_bought"][seat]
    return f"tied on {_points(result['points'][seat])} and {cards} card{'' if cards == 1 else 's'}"


ENDING = Ending(
    ways={POINTS: _most_points, FEWEST_CARDS: _fewest_cards, SHARED: _shared},
    won_by=won_by,
    points_besides_cards="nobles",
    scores=lambda players: split_of_points(players, "nobles"),
)
