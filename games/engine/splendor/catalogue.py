"""The 90 development cards and 10 nobles of the base game, as the engine's own data.

Facts from the published game, checked against the invariants of the published data by
``tests/engine/test_catalogue.py``. A card's id is its index in :data:`CARDS`; a noble's id is its
index in :data:`NOBLES`. Ids are stable: the event log and the notation refer to them.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.splendor.gems import Gems


class Card(NamedTuple):
    id: int
    level: int
    colour: int
    """The colour of the permanent bonus the card gives."""
    points: int
    cost: Gems


class Noble(NamedTuple):
    id: int
    points: int
    requires: Gems
    """Bonuses (purchased cards) of each colour needed for the noble's visit."""


# (level, bonus colour, points, cost in white, blue, green, red, black)
_CARD_ROWS: tuple[tuple[int, int, int, Gems], ...] = (
    (1, 0, 0, (0, 3, 0, 0, 0)),
    (1, 0, 0, (0, 0, 0, 2, 1)),
    (1, 0, 0, (0, 2, 0, 0, 2)),
    (1, 0, 0, (0, 1, 1, 1, 1)),
    (1, 0, 0, (3, 1, 0, 0, 1)),
    (1, 0, 0, (0, 2, 2, 0, 1)),
    (1, 0, 0, (0, 1, 2, 1, 1)),
    (1, 0, 1, (0, 0, 4, 0, 0)),
    (1, 1, 0, (1, 0, 0, 0, 2)),
    (1, 1, 0, (0, 0, 0, 0, 3)),
    (1, 1, 0, (1, 0, 1, 1, 1)),
    (1, 1, 0, (0, 0, 2, 0, 2)),
    (1, 1, 0, (1, 0, 2, 2, 0)),
    (1, 1, 0, (1, 0, 1, 2, 1)),
    (1, 1, 0, (0, 1, 3, 1, 0)),
    (1, 1, 1, (0, 0, 0, 4, 0)),
    (1, 2, 0, (2, 1, 0, 0, 0)),
    (1, 2, 0, (0, 0, 0, 3, 0)),
    (1, 2, 0, (1, 1, 0, 1, 1)),
    (1, 2, 0, (0, 2, 0, 2, 0)),
    (1, 2, 0, (1, 3, 1, 0, 0)),
    (1, 2, 0, (1, 1, 0, 1, 2)),
    (1, 2, 0, (0, 1, 0, 2, 2)),
    (1, 2, 1, (0, 0, 0, 0, 4)),
    (1, 3, 0, (3, 0, 0, 0, 0)),
    (1, 3, 0, (0, 2, 1, 0, 0)),
    (1, 3, 0, (2, 0, 0, 2, 0)),
    (1, 3, 0, (1, 1, 1, 0, 1)),
    (1, 3, 0, (2, 1, 1, 0, 1)),
    (1, 3, 0, (2, 0, 1, 0, 2)),
    (1, 3, 0, (1, 0, 0, 1, 3)),
    (1, 3, 1, (4, 0, 0, 0, 0)),
    (1, 4, 0, (0, 0, 3, 0, 0)),
    (1, 4, 0, (0, 0, 2, 1, 0)),
    (1, 4, 0, (2, 0, 2, 0, 0)),
    (1, 4, 0, (1, 1, 1, 1, 0)),
    (1, 4, 0, (2, 2, 0, 1, 0)),
    (1, 4, 0, (1, 2, 1, 1, 0)),
    (1, 4, 0, (0, 0, 1, 3, 1)),
    (1, 4, 1, (0, 4, 0, 0, 0)),
    (2, 0, 1, (0, 0, 3, 2, 2)),
    (2, 0, 1, (2, 3, 0, 3, 0)),
    (2, 0, 2, (0, 0, 0, 5, 0)),
    (2, 0, 2, (0, 0, 1, 4, 2)),
    (2, 0, 2, (0, 0, 0, 5, 3)),
    (2, 0, 3, (6, 0, 0, 0, 0)),
    (2, 1, 1, (0, 2, 2, 3, 0)),
    (2, 1, 1, (0, 2, 3, 0, 3)),
    (2, 1, 2, (0, 5, 0, 0, 0)),
    (2, 1, 2, (2, 0, 0, 1, 4)),
    (2, 1, 2, (5, 3, 0, 0, 0)),
    (2, 1, 3, (0, 6, 0, 0, 0)),
    (2, 2, 1, (2, 3, 0, 0, 2)),
    (2, 2, 1, (3, 0, 2, 3, 0)),
    (2, 2, 2, (0, 0, 5, 0, 0)),
    (2, 2, 2, (4, 2, 0, 0, 1)),
    (2, 2, 2, (0, 5, 3, 0, 0)),
    (2, 2, 3, (0, 0, 6, 0, 0)),
    (2, 3, 1, (2, 0, 0, 2, 3)),
    (2, 3, 1, (0, 3, 0, 2, 3)),
    (2, 3, 2, (0, 0, 0, 0, 5)),
    (2, 3, 2, (1, 4, 2, 0, 0)),
    (2, 3, 2, (3, 0, 0, 0, 5)),
    (2, 3, 3, (0, 0, 0, 6, 0)),
    (2, 4, 1, (3, 2, 2, 0, 0)),
    (2, 4, 1, (3, 0, 3, 0, 2)),
    (2, 4, 2, (5, 0, 0, 0, 0)),
    (2, 4, 2, (0, 1, 4, 2, 0)),
    (2, 4, 2, (0, 0, 5, 3, 0)),
    (2, 4, 3, (0, 0, 0, 0, 6)),
    (3, 0, 3, (0, 3, 3, 5, 3)),
    (3, 0, 4, (0, 0, 0, 0, 7)),
    (3, 0, 4, (3, 0, 0, 3, 6)),
    (3, 0, 5, (3, 0, 0, 0, 7)),
    (3, 1, 3, (3, 0, 3, 3, 5)),
    (3, 1, 4, (7, 0, 0, 0, 0)),
    (3, 1, 4, (6, 3, 0, 0, 3)),
    (3, 1, 5, (7, 3, 0, 0, 0)),
    (3, 2, 3, (5, 3, 0, 3, 3)),
    (3, 2, 4, (0, 7, 0, 0, 0)),
    (3, 2, 4, (3, 6, 3, 0, 0)),
    (3, 2, 5, (0, 7, 3, 0, 0)),
    (3, 3, 3, (3, 5, 3, 0, 3)),
    (3, 3, 4, (0, 0, 7, 0, 0)),
    (3, 3, 4, (0, 3, 6, 3, 0)),
    (3, 3, 5, (0, 0, 7, 3, 0)),
    (3, 4, 3, (3, 3, 5, 3, 0)),
    (3, 4, 4, (0, 0, 0, 7, 0)),
    (3, 4, 4, (0, 0, 3, 6, 3)),
    (3, 4, 5, (0, 0, 0, 7, 3)),
)

# (points, bonuses required in white, blue, green, red, black)
_NOBLE_ROWS: tuple[tuple[int, Gems], ...] = (
    (3, (4, 4, 0, 0, 0)),
    (3, (4, 0, 0, 0, 4)),
    (3, (0, 4, 4, 0, 0)),
    (3, (0, 0, 4, 4, 0)),
    (3, (0, 0, 0, 4, 4)),
    (3, (3, 3, 3, 0, 0)),
    (3, (3, 3, 0, 0, 3)),
    (3, (3, 0, 0, 3, 3)),
    (3, (0, 3, 3, 3, 0)),
    (3, (0, 0, 3, 3, 3)),
)

CARDS: tuple[Card, ...] = tuple(
    Card(index, level, colour, points, cost)
    for index, (level, colour, points, cost) in enumerate(_CARD_ROWS)
)
NOBLES: tuple[Noble, ...] = tuple(
    Noble(index, points, requires) for index, (points, requires) in enumerate(_NOBLE_ROWS)
)
LEVELS: tuple[int, ...] = (1, 2, 3)
CARD_IDS_BY_LEVEL: dict[int, tuple[int, ...]] = {
    level: tuple(card.id for card in CARDS if card.level == level) for level in LEVELS
}
