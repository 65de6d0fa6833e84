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
    first_seat: int = 0
    """The seat that moved first: the pages count players by the order they moved in, and not
    every game seats the first player first (Splendor Duel draws who starts)."""
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
class TurnOrderWords:
    """How the stats pages name the players by the order they moved in (the ``seat_order``
    statistics), in a game's own words: whether a seat or a draw decides who starts."""

    heading: str
    places: tuple[str, ...]
    """The first player to move, the second, ...: one name per place, as many as seats."""
    note: str
    short: str
    """The section's name in the page's contents."""


TURN_ORDER_IN_ANY_GAME = TurnOrderWords(
    short="Order of play",
    heading="Win rate by order of play",
    places=("moved 1st", "moved 2nd", "moved 3rd", "moved 4th"),
    note="Players are counted by the order they moved in.",
)
"""The words for numbers summed over several games, whose own words may differ."""


@dataclass(frozen=True, kw_only=True)
class GameAnalytics:
    name: str
    fold: Callable[[Mapping[str, Any], Iterable[PlayedAction]], ActionFold]
    """(setup JSON, the actions in order) → the facts of the play."""
    cards: Callable[[], list[dict[str, Any]]]
    """Every card of the game as a view spells it: id, level, colour, points, cost."""
    nobles: Callable[[], list[dict[str, Any]]]
    colours: tuple[str, ...]
    """The bonus colours, in the order the pages list them."""
    card_label: Callable[[Mapping[str, Any]], str]
    """A card of ``cards()`` as the pages name it, short enough for a chart's bar and unique
    in the game: the stats pages, the player's page and the CSVs name cards so, never by a
    number alone (the base game's card 5 is not Duel's)."""
    card_key: str
    """How to read those names, under each card chart."""
    turn_order: TurnOrderWords
    """How the pages name the players by the order they moved in."""
    endings_note: str
    """What each way a game ends (``ended_by``) means, under "How games end"."""
    summary: Callable[[Mapping[tuple[str, str], int]], dict[str, Any]] | None = None
    """The game's own numbers from its summed tallies, or none beyond the shared ones."""
    noble_words: NobleWords = NobleWords()
