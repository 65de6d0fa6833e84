"""The three ways to win, checked at the end of a turn, and the outcome of a finished game.

Rulebook, "Victory conditions": 20 or more prestige points, 10 or more crowns, or 10 or more
points on cards of one colour; the game ends at once. A game ended by two passes in a row has no
winner (docs/decisions/0045-duel-rulings.md).
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.duel.state import (
    GAME_OVER,
    WINNING_COLOUR_POINTS,
    WINNING_CROWNS,
    WINNING_POINTS,
    DuelState,
    PlayerState,
)

TWENTY_POINTS = "twenty_points"
TEN_CROWNS = "ten_crowns"
TEN_POINTS_IN_A_COLOUR = "ten_points_in_a_colour"
ALL_PASSED = "all_passed"
"""Neither player could act, twice in a row: the game ends without a winner."""

BY_VICTORY_CONDITION = "victory_condition"
SHARED = "shared"


class Outcome(NamedTuple):
    """The same fields as the base game's outcome, so that a result reads alike for both."""

    points: tuple[int, ...]
    cards_bought: tuple[int, ...]
    winners: tuple[int, ...]
    """The winning seat, or both seats when nobody won."""
    decided_by: str
    ended_by: str
    """The victory condition met (the first of the three, if several), or ``all_passed``."""
    crowns: tuple[int, ...]


def victory_conditions(player: PlayerState) -> tuple[str, ...]:
    """The victory conditions the player meets, in the rulebook's order."""
    met = []
    if player.points >= WINNING_POINTS:
        met.append(TWENTY_POINTS)
    if player.crowns >= WINNING_CROWNS:
        met.append(TEN_CROWNS)
    if max(player.colour_points) >= WINNING_COLOUR_POINTS:
        met.append(TEN_POINTS_IN_A_COLOUR)
    return tuple(met)


def has_won(player: PlayerState) -> bool:
    return (
        player.points >= WINNING_POINTS
        or player.crowns >= WINNING_CROWNS
        or max(player.colour_points) >= WINNING_COLOUR_POINTS
    )


def outcome(state: DuelState) -> Outcome | None:
    """``None`` while the game runs; who won and how once it is over."""
    if state.phase != GAME_OVER:
        return None
    players = state.players
    points = tuple(player.points for player in players)
    cards_bought = tuple(len(player.cards) for player in players)
    crowns = tuple(player.crowns for player in players)
    met = victory_conditions(players[state.current])
    if met:
        return Outcome(points, cards_bought, (state.current,), BY_VICTORY_CONDITION, met[0], crowns)
    return Outcome(points, cards_bought, tuple(range(len(players))), SHARED, ALL_PASSED, crowns)
