"""The 67 jewel cards, 4 royal cards, 25 tokens and the board's spiral: the engine's own data.

Facts from the published game, checked against the invariants of the published data by
``tests/engine/duel/test_catalogue.py``. A card's id is its index in :data:`CARDS` (levels 1, 2
and 3 are ids 0–29, 30–53 and 54–66); a royal's id is its index in :data:`ROYALS`. Ids are
stable: the event log and the notation refer to them.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.duel.tokens import BLACK, BLUE, GREEN, RED, WHITE, Cost, Tokens

JOKER = -2
"""The "5-Gem" bonus: the card takes the colour of a bonus card its owner already has."""
NO_COLOUR = -1
"""A card without a bonus (points only), or a royal card: it belongs to no colour."""

NONE = "none"
EXTRA_TURN = "extra_turn"
"""Refresh: take another turn immediately after this one."""
TAKE_TOKEN = "take_token"
"""Gem: take a token of the card's colour from the board, if any is there."""
PRIVILEGE = "privilege"
"""Take a privilege (from the opponent if none is left on the table)."""
STEAL = "steal"
"""Take: take a gem or pearl token from the opponent, if they have one."""
ABILITIES: tuple[str, ...] = (NONE, EXTRA_TURN, TAKE_TOKEN, PRIVILEGE, STEAL)

LEVELS: tuple[int, ...] = (1, 2, 3)
PYRAMID_WIDTHS: dict[int, int] = {1: 5, 2: 4, 3: 3}
"""Face-up cards of each level: the pyramid of 3 (level 3), 4 (level 2) and 5 (level 1)."""


class Card(NamedTuple):
    id: int
    level: int
    colour: int
    """A gem colour, :data:`JOKER` or :data:`NO_COLOUR`."""
    bonus: int
    """How many bonuses of its colour the card gives: 0, 1 or 2."""
    points: int
    crowns: int
    cost: Cost
    ability: str


class Royal(NamedTuple):
    id: int
    points: int
    ability: str


# (level, bonus colour, bonuses, points, crowns, cost in white, blue, green, red, black, pearl,
# ability), in the order of the published card list.
_CARD_ROWS: tuple[tuple[int, int, int, int, int, Cost, str], ...] = (
    (1, WHITE, 1, 0, 0, (0, 0, 0, 2, 2, 0), TAKE_TOKEN),
    (1, WHITE, 1, 0, 0, (0, 1, 1, 1, 1, 0), NONE),
    (1, WHITE, 1, 0, 0, (0, 2, 2, 0, 0, 1), EXTRA_TURN),
    (1, WHITE, 1, 0, 1, (0, 3, 0, 0, 0, 0), NONE),
    (1, WHITE, 1, 1, 0, (0, 0, 2, 3, 0, 0), NONE),
    (1, BLUE, 1, 0, 0, (1, 0, 1, 1, 1, 0), NONE),
    (1, BLUE, 1, 0, 0, (2, 0, 0, 0, 2, 0), TAKE_TOKEN),
    (1, BLUE, 1, 0, 0, (0, 0, 2, 2, 0, 1), EXTRA_TURN),
    (1, BLUE, 1, 0, 1, (0, 0, 3, 0, 0, 0), NONE),
    (1, BLUE, 1, 1, 0, (0, 0, 0, 2, 3, 0), NONE),
    (1, GREEN, 1, 0, 0, (1, 1, 0, 1, 1, 0), NONE),
    (1, GREEN, 1, 0, 0, (2, 2, 0, 0, 0, 0), TAKE_TOKEN),
    (1, GREEN, 1, 0, 0, (0, 0, 0, 2, 2, 1), EXTRA_TURN),
    (1, GREEN, 1, 0, 1, (0, 0, 0, 3, 0, 0), NONE),
    (1, GREEN, 1, 1, 0, (3, 0, 0, 0, 2, 0), NONE),
    (1, RED, 1, 0, 0, (0, 2, 2, 0, 0, 0), TAKE_TOKEN),
    (1, RED, 1, 0, 0, (1, 1, 1, 0, 1, 0), NONE),
    (1, RED, 1, 0, 0, (2, 0, 0, 0, 2, 1), EXTRA_TURN),
    (1, RED, 1, 0, 1, (0, 0, 0, 0, 3, 0), NONE),
    (1, RED, 1, 1, 0, (2, 3, 0, 0, 0, 0), NONE),
    (1, BLACK, 1, 0, 0, (0, 0, 2, 2, 0, 0), TAKE_TOKEN),
    (1, BLACK, 1, 0, 0, (1, 1, 1, 1, 0, 0), NONE),
    (1, BLACK, 1, 0, 0, (2, 2, 0, 0, 0, 1), EXTRA_TURN),
    (1, BLACK, 1, 0, 1, (3, 0, 0, 0, 0, 0), NONE),
    (1, BLACK, 1, 1, 0, (0, 2, 3, 0, 0, 0), NONE),
    (1, JOKER, 1, 0, 1, (4, 0, 0, 0, 0, 1), NONE),
    (1, JOKER, 1, 1, 0, (0, 0, 0, 0, 4, 1), NONE),
    (1, JOKER, 1, 1, 0, (0, 2, 0, 2, 1, 1), NONE),
    (1, JOKER, 1, 1, 0, (2, 0, 2, 0, 1, 1), NONE),
    (1, NO_COLOUR, 0, 3, 0, (0, 0, 0, 4, 0, 1), NONE),
    (2, WHITE, 1, 1, 0, (0, 4, 0, 3, 0, 0), STEAL),
    (2, WHITE, 2, 1, 0, (0, 5, 2, 0, 0, 0), NONE),
    (2, WHITE, 1, 2, 0, (4, 0, 0, 0, 2, 1), PRIVILEGE),
    (2, WHITE, 1, 2, 1, (0, 0, 2, 2, 2, 1), NONE),
    (2, BLUE, 1, 1, 0, (0, 0, 4, 0, 3, 0), STEAL),
    (2, BLUE, 2, 1, 0, (0, 0, 5, 2, 0, 0), NONE),
    (2, BLUE, 1, 2, 0, (2, 4, 0, 0, 0, 1), PRIVILEGE),
    (2, BLUE, 1, 2, 1, (2, 0, 0, 2, 2, 1), NONE),
    (2, GREEN, 2, 1, 0, (0, 0, 0, 5, 2, 0), NONE),
    (2, GREEN, 1, 1, 0, (3, 0, 0, 4, 0, 0), STEAL),
    (2, GREEN, 1, 2, 0, (0, 2, 4, 0, 0, 1), PRIVILEGE),
    (2, GREEN, 1, 2, 1, (2, 2, 0, 0, 2, 1), NONE),
    (2, RED, 1, 1, 0, (0, 3, 0, 0, 4, 0), STEAL),
    (2, RED, 2, 1, 0, (2, 0, 0, 0, 5, 0), NONE),
    (2, RED, 1, 2, 0, (0, 0, 2, 4, 0, 1), PRIVILEGE),
    (2, RED, 1, 2, 1, (2, 2, 2, 0, 0, 1), NONE),
    (2, BLACK, 1, 1, 0, (4, 0, 3, 0, 0, 0), STEAL),
    (2, BLACK, 2, 1, 0, (5, 2, 0, 0, 0, 0), NONE),
    (2, BLACK, 1, 2, 0, (0, 0, 0, 2, 4, 1), PRIVILEGE),
    (2, BLACK, 1, 2, 1, (0, 2, 2, 2, 0, 1), NONE),
    (2, JOKER, 1, 0, 2, (0, 0, 6, 0, 0, 1), NONE),
    (2, JOKER, 1, 0, 2, (0, 6, 0, 0, 0, 1), NONE),
    (2, JOKER, 1, 2, 0, (0, 0, 6, 0, 0, 1), NONE),
    (2, NO_COLOUR, 0, 5, 0, (0, 6, 0, 0, 0, 1), NONE),
    (3, WHITE, 1, 3, 2, (0, 3, 0, 5, 3, 1), NONE),
    (3, WHITE, 1, 4, 0, (6, 2, 0, 0, 2, 0), NONE),
    (3, BLUE, 1, 3, 2, (3, 0, 3, 0, 5, 1), NONE),
    (3, BLUE, 1, 4, 0, (2, 6, 2, 0, 0, 0), NONE),
    (3, GREEN, 1, 3, 2, (5, 3, 0, 3, 0, 1), NONE),
    (3, GREEN, 1, 4, 0, (0, 2, 6, 2, 0, 0), NONE),
    (3, RED, 1, 3, 2, (0, 5, 3, 0, 3, 1), NONE),
    (3, RED, 1, 4, 0, (0, 0, 2, 6, 2, 0), NONE),
    (3, BLACK, 1, 3, 2, (3, 0, 5, 3, 0, 1), NONE),
    (3, BLACK, 1, 4, 0, (2, 0, 0, 2, 6, 0), NONE),
    (3, JOKER, 1, 0, 3, (0, 0, 0, 0, 8, 0), NONE),
    (3, JOKER, 1, 3, 0, (0, 0, 0, 8, 0, 0), EXTRA_TURN),
    (3, NO_COLOUR, 0, 6, 0, (8, 0, 0, 0, 0, 0), NONE),
)

CARDS: tuple[Card, ...] = tuple(Card(index, *row) for index, row in enumerate(_CARD_ROWS))
CARD_IDS_BY_LEVEL: dict[int, tuple[int, ...]] = {
    level: tuple(card.id for card in CARDS if card.level == level) for level in LEVELS
}

ROYALS: tuple[Royal, ...] = (
    Royal(0, 2, STEAL),
    Royal(1, 2, EXTRA_TURN),
    Royal(2, 2, PRIVILEGE),
    Royal(3, 3, NONE),
)

TOKEN_COUNTS: Tokens = (4, 4, 4, 4, 4, 2, 3)
"""The 25 tokens: four of each gem colour, two pearls, three gold."""

PRIVILEGES = 3
"""The privilege scrolls: on the table, or in front of a player."""

SPIRAL: tuple[tuple[int, int], ...] = (
    (2, 2),
    (3, 2),
    (3, 1),
    (2, 1),
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 3),
    (3, 3),
    (4, 3),
    (4, 2),
    (4, 1),
    (4, 0),
    (3, 0),
    (2, 0),
    (1, 0),
    (0, 0),
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 4),
    (2, 4),
    (3, 4),
    (4, 4),
)
"""The printed spiral: the (row, column) of each space in the order tokens are placed, row 0
at the top. The centre comes first."""
