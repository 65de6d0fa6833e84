"""What a game's package tells analytics: its fold of a played game into facts, its catalogue.

Statistics are projections of finished games (design.md, "Analytics"). What differs per game is
how its actions turn into facts (who saw, reserved and bought which card, which noble visited
whom), its catalogue of cards and nobles for the pages, its own numbers, and how the pages name
things; each game's package provides that as a :class:`GameAnalytics` in its ``Game``
(``games.variants.<game>.facts``), and ``analytics`` reads it through the one registry.

Why here and not in ``analytics``: a game's fold needs only the engine and the result shape
:class:`ActionFold`, so the shape moved down from ``analytics.facts`` with the folds, and a game
is one package; ``analytics`` imports it (upper layer reads lower), never the reverse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

PlayedAction = tuple[int | None, Any, str]
"""(seat, the engine's action, the action's type as the notation spells it), as logged."""


@dataclass
class ActionFold:
    """What a game's fold tells about its play, in the shapes every game shares
    (``analytics.facts`` makes its per-game facts of them)."""

    turns: int = 0
    cards_seen: list[int] = field(default_factory=list)
    purchases: list[tuple[int, int, int]] = field(default_factory=list)
    reserves: list[tuple[int, int, int]] = field(default_factory=list)
    nobles_in_play: list[int] = field(default_factory=list)
    visits: list[tuple[int, int, int]] = field(default_factory=list)
    actions: list[dict[str, int]] = field(default_factory=list)
    """Per seat: actions taken per action type."""
    colours: list[dict[str, int]] = field(default_factory=list)
    """Per seat: cards bought per bonus colour (the colour a card counts as at the end)."""
    seat_tallies: list[dict[tuple[str, str], int]] = field(default_factory=list)
    """Per seat: the variant's own counters. Each goes into ``GameFact.variant_tallies``, and
    again as ``<metric>.won`` for the seats that won, so the pages can tell what winners did."""

    def count_blind_reserves_as_seen(self) -> None:
        """Add to ``cards_seen`` the cards reserved unseen from a deck.

        Such a card never lies on the display, yet it can be bought from the hand: left out of
        the cards in play, it would be bought more often than it was ever there (a purchase rate
        above 100%).
        """
        seen = set(self.cards_seen)
        for card, _seat, _turn in self.reserves:
            if card not in seen:
                seen.add(card)
                self.cards_seen.append(card)


@dataclass(frozen=True)
class NobleWords:
    """How the stats pages name a game's nobles (Splendor Duel's are its royal cards)."""

    heading: str = "Nobles"
    one: str = "Noble"
    detail: str = "Requires"
    taken: str = "Visits"
    take_rate: str = "Visit rate"
    takers: str = "the visited"


@dataclass(frozen=True)
class GameAnalytics:
    name: str
    fold: Callable[[Mapping[str, Any], Iterable[PlayedAction]], ActionFold]
    """(setup JSON, the actions in order) → the facts of the play."""
    cards: Callable[[], list[dict[str, Any]]]
    """Every card of the game as a view spells it: id, level, colour, points, cost."""
    nobles: Callable[[], list[dict[str, Any]]]
    colours: tuple[str, ...]
    """The bonus colours, in the order the pages list them."""
    summary: Callable[[Mapping[tuple[str, str], int]], dict[str, Any]] | None = None
    """The game's own numbers from its summed tallies, or none beyond the shared ones."""
    noble_words: NobleWords = NobleWords()
    bar_letters: str = "W white, B blue, G green, R red, K black"
    """The letters on the card charts' bars (``analytics.charts.LETTERS``) this game uses."""
