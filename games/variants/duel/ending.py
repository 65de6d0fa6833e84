"""How a Splendor Duel ends: at once, by 20 points, 10 crowns or 10 points on cards of one
colour; by both players passing in a row (nobody wins); or by a resignation
(``games.variants.endings``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.endings import RESIGNATION, Ending, split_of_points

POINTS = "points"
"""20 prestige points."""
CROWNS = "crowns"
"""10 crowns."""
COLOUR_POINTS = "colour_points"
"""10 points on cards of one colour; the result names the colour."""
SHARED = "shared"
"""Neither player could move, twice in a row: the game ends without a winner of its own."""

_BY_VICTORY_CONDITION = {
    "twenty_points": POINTS,
    "ten_crowns": CROWNS,
    "ten_points_in_a_colour": COLOUR_POINTS,
    "all_passed": SHARED,
    RESIGNATION: RESIGNATION,
}
"""The engine's ``ended_by`` (the first victory condition met, in the rulebook's order)."""


def won_by(result: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    way = _BY_VICTORY_CONDITION[result["ended_by"]]
    if way != COLOUR_POINTS:
        return {"won_by": way}
    colour_points = players[result["winners"][0]]["colour_points"]
    return {"won_by": way, "colour": max(colour_points, key=colour_points.get)}


ENDING = Ending(
    ways={
        POINTS: lambda result, names: "20 points",
        CROWNS: lambda result, names: "10 crowns",
        COLOUR_POINTS: lambda result, names: f"10 points in {result['colour']}",
        SHARED: lambda result, names: "neither could move",
    },
    won_by=won_by,
    points_besides_cards="royals",
    scores=lambda players: split_of_points(players, "royals"),
)
