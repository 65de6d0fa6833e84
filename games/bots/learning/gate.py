"""A gate's match: a candidate network's bot against the current one's, game by game.

A new network replaces the current one only if its bot beats the current bot over a match (the
``training`` app plays each game in a task of its own and decides). In game ``index`` of a
match the candidate takes seat ``index % seats`` and the current bot every other seat; the
games of one round of seats share a deal (``deal_of``), so that each deal is played from every
chair and a lucky deal favours neither side. The candidate's score in a game is its share of
the win: 1, 1/k for a win shared by k, 0 for a loss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from games.bots.learning import selfplay
from games.bots.learning.selfplay import Player

Z_95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class MatchGame:
    candidate_seat: int
    score: float
    """The candidate's share of the win."""
    actions: int


@dataclass(frozen=True)
class MatchResult:
    games: int
    wins: int
    shared: int
    losses: int
    score: float
    """The candidate's mean share of the win: 0.5 is an even match between two players."""
    low: float
    high: float
    """The Wilson 95% interval of the score."""

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def candidate_seat(index: int, seats: int) -> int:
    return index % seats


def deal_of(index: int, seats: int) -> int:
    """The deal of game ``index``: the same for the ``seats`` games of one round of seats."""
    return index // seats


def play_match_game(
    variant: str, candidate: Player, current: Player, *, seats: int, index: int, seed: int
) -> MatchGame:
    """Game ``index`` of a match, dealt from ``seed`` (``deal_of`` says which games share it)."""
    seat = candidate_seat(index, seats)
    players = [candidate if chair == seat else current for chair in range(seats)]
    played = selfplay.play(variant, players, seed)
    return MatchGame(seat, played.results[seat], played.actions)


def match_result(scores: Sequence[float]) -> MatchResult:
    """The candidate's result over the games of a match, from its score in each."""
    games = len(scores)
    wins = sum(1 for score in scores if score == 1.0)
    losses = sum(1 for score in scores if score == 0.0)
    mean = sum(scores) / games if games else 0.0
    low, high = wilson_interval(mean, games)
    return MatchResult(games, wins, games - wins - losses, losses, mean, low, high)


def wilson_interval(score: float, games: int) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``score`` over ``games`` games (a shared win counted
    as its share, as if it were that fraction of a win)."""
    if games == 0:
        return 0.0, 1.0
    z2 = Z_95 * Z_95
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    spread = Z_95 * math.sqrt(score * (1 - score) / games + z2 / (4 * games * games))
    spread /= 1 + z2 / games
    return max(0.0, centre - spread), min(1.0, centre + spread)
