"""Ratings with OpenSkill's Plackett–Luce model: a multiplayer result is a ranking of seats.

Everyone is rated on one scale (so a human who beats the Greedy bot gains), and the pages list
bots apart from people. A bot level is one participant: when it holds several seats in a game,
each seat is rated as a copy and the level takes the mean of the copies' new ratings. Results
are rated in the order games finished, (finished_at, game id) within a variant, whatever order
they are counted in (``analytics.rating_writes``): ratings are a function of the ordered log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative estimate (mu − 3σ), what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


INITIAL = Skill(MODEL.mu, MODEL.sigma)

# The scale players see (docs/decisions/0072-display-ratings.md): the ordinal
# moved so a new player (ordinal 0) shows 1500, and stretched so one unit of skill, about 30 Elo
# points of winning odds between settled players (sqrt(2)·β ≈ 5.9 units per 173.7 Elo points),
# shows as 30 points.
DISPLAY_START = 1500
DISPLAY_POINTS_PER_UNIT = 30


def display_rating(ordinal: float) -> int:
    """The rating as pages and the API's ``display_rating`` show it: a linear map of the
    ordinal, so it sorts exactly as the ordinal does (ties aside, from rounding)."""
    return round(DISPLAY_START + DISPLAY_POINTS_PER_UNIT * ordinal)


def participant_of(user_id: int | None, bot_level: str) -> str:
    return f"bot:{bot_level}" if bot_level else f"user:{user_id}"


def rate(
    current: dict[str, Skill], seats: Sequence[tuple[str, int]]
) -> dict[str, tuple[float, Skill]]:
    """The new skill of each participant after one game of (participant, rank) seats.

    Returns participant → (ordinal before, skill after); ``current`` is not changed.
    """
    teams = []
    for participant, _rank in seats:
        skill = current.get(participant, INITIAL)
        teams.append([MODEL.rating(mu=skill.mu, sigma=skill.sigma)])
    rated = MODEL.rate(teams, ranks=[rank for _participant, rank in seats])
    copies: dict[str, list[tuple[float, float]]] = {}
    for (participant, _rank), team in zip(seats, rated, strict=True):
        copies.setdefault(participant, []).append((team[0].mu, team[0].sigma))
    changes = {}
    for participant, values in copies.items():
        before = current.get(participant, INITIAL)
        mu = sum(value[0] for value in values) / len(values)
        sigma = sum(value[1] for value in values) / len(values)
        changes[participant] = (before.ordinal, Skill(mu, sigma, before.games + 1))
    return changes
