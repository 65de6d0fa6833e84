"""The end of the game: final scores, the winners and how the winner was decided."""

from __future__ import annotations

from typing import NamedTuple

from games.engine.splendor.state import GAME_OVER, WINNING_POINTS, GameState

BY_POINTS = "points"
"""One player had the most points."""
BY_FEWEST_CARDS = "fewest_cards"
"""Players tied on points; the one who bought the fewest cards won (the rulebook tie-break)."""
SHARED = "shared"
"""Players tied on points and on cards bought: they share the win."""

REACHED_POINTS = "reached_points"
"""Someone reached 15 points and the round was completed."""
ALL_PASSED = "all_passed"
"""Every player passed in one round: nobody could act, so the game ended with that round."""


class Outcome(NamedTuple):
    points: tuple[int, ...]
    cards_bought: tuple[int, ...]
    winners: tuple[int, ...]
    """The winning seats: more than one only when the win is shared."""
    decided_by: str
    ended_by: str


def outcome(state: GameState) -> Outcome | None:
    """Most points wins, then fewest purchased cards; a remaining tie is a shared win."""
    if state.phase != GAME_OVER:
        return None
    points = tuple(player.points for player in state.players)
    cards_bought = tuple(len(player.cards) for player in state.players)
    best = max(points)
    leaders = [seat for seat, score in enumerate(points) if score == best]
    fewest = min(cards_bought[seat] for seat in leaders)
    winners = tuple(seat for seat in leaders if cards_bought[seat] == fewest)
    if len(leaders) == 1:
        decided_by = BY_POINTS
    elif len(winners) == 1:
        decided_by = BY_FEWEST_CARDS
    else:
        decided_by = SHARED
    ended_by = REACHED_POINTS if best >= WINNING_POINTS else ALL_PASSED
    return Outcome(points, cards_bought, winners, decided_by, ended_by)
