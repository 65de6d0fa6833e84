"""Per-game facts: what a finished game was, in a shape every variant shares.

Each game's fold (its ``Game``'s analytics facts, ``games.variants.<game>.facts``) turns the
game's actions into a ``games.variants.play_facts.ActionFold``, and ``analytics.extract`` puts
that into these values; the projections, the pages and the API read only these, never a
variant's state.
Turns are the acting player's own turns, counted from 1 (the round the thing happened in).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class SeatFact:
    seat: int
    user_id: int | None
    bot_level: str
    display_name: str
    points: int
    won: bool
    rank: int
    cards: tuple[int, ...]
    """Cards bought, in order."""
    colours: dict[str, int]
    """Cards bought per bonus colour."""
    actions: dict[str, int]
    """Actions taken per action type."""

    @property
    def kind(self) -> str:
        """ "human", or the bot's level: how bots' results are grouped."""
        return self.bot_level or "human"


@dataclass(frozen=True)
class GameFact:
    game_id: int
    variant: str
    player_count: int
    finished_at: datetime
    rounds: int
    ended_by: str
    is_rated: bool
    """Played here from a fresh deal: only such games are rated and tallied into statistics."""
    seats: tuple[SeatFact, ...]
    cards_seen: tuple[int, ...]
    """Every card that came into play, once each: it lay face up on the display (the pyramid in
    Splendor Duel) at some point, or was reserved unseen from a deck."""
    purchases: tuple[tuple[int, int, int], ...]
    """(card, seat, turn) per card bought."""
    reserves: tuple[tuple[int, int, int], ...]
    """(card, seat, turn) per card reserved, from the display or unseen from a deck."""
    nobles_in_play: tuple[int, ...]
    visits: tuple[tuple[int, int, int], ...] = field(default=())
    """(noble, seat, turn) per noble's visit (in Splendor Duel: per royal card taken)."""
    variant_tallies: tuple[tuple[tuple[str, str], int], ...] = field(default=())
    """The variant's own counters, ((metric, item), amount): what only that game has."""
    first_seat: int = 0
    """The seat that moved first (Splendor Duel draws it; the base game's seat 0 starts)."""

    def place_of(self, seat: int) -> int:
        """A seat's place in the order of play: 0 moved first, then 1, ..."""
        return (seat - self.first_seat) % self.player_count

    @property
    def with_bots(self) -> bool:
        return any(seat.bot_level for seat in self.seats)

    def variant_facts_json(self) -> dict[str, Any]:
        return {
            "cards_seen": list(self.cards_seen),
            "purchases": [list(row) for row in self.purchases],
            "reserves": [list(row) for row in self.reserves],
            "nobles_in_play": list(self.nobles_in_play),
            "visits": [list(row) for row in self.visits],
            "tallies": [[metric, item, amount] for (metric, item), amount in self.variant_tallies],
            "first_seat": self.first_seat,
        }


def ranks_of(
    points: list[int], cards_bought: list[int], winners: list[int], resigned: list[int]
) -> list[int]:
    """1 for the winners, then by points and fewest cards bought; resigned seats come last."""

    def standing(seat: int) -> tuple[int, int, int]:
        return (seat in resigned, -points[seat], cards_bought[seat])

    others = sorted({standing(seat) for seat in range(len(points)) if seat not in winners})
    return [
        1 if seat in winners else 2 + others.index(standing(seat)) for seat in range(len(points))
    ]
