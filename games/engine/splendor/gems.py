"""Gem colours and token vectors.

A token vector is a tuple of six counts in the order white, blue, green, red, black, gold: the
colour cycle of the cards and nobles, followed by gold (the joker). Bonus vectors have only the
five gem colours.
"""

from __future__ import annotations

from collections.abc import Mapping

WHITE, BLUE, GREEN, RED, BLACK, GOLD = range(6)
GEM_COLOURS: tuple[int, ...] = (WHITE, BLUE, GREEN, RED, BLACK)
TOKEN_COLOURS: tuple[int, ...] = (*GEM_COLOURS, GOLD)
COLOUR_NAMES: tuple[str, ...] = ("white", "blue", "green", "red", "black", "gold")
COLOUR_BY_NAME: dict[str, int] = {name: index for index, name in enumerate(COLOUR_NAMES)}

Tokens = tuple[int, ...]
"""Six token counts (white, blue, green, red, black, gold)."""

Gems = tuple[int, ...]
"""Five gem counts (white, blue, green, red, black): costs, bonuses and noble requirements."""

NO_TOKENS: Tokens = (0, 0, 0, 0, 0, 0)
NO_GEMS: Gems = (0, 0, 0, 0, 0)


def tokens_to_json(tokens: Tokens) -> dict[str, int]:
    """The non-zero counts of a vector, keyed by colour name (``{"red": 2, "gold": 1}``)."""
    return {COLOUR_NAMES[colour]: count for colour, count in enumerate(tokens) if count}


def tokens_from_json(counts: Mapping[str, int], size: int = 6) -> tuple[int, ...]:
    """The inverse of :func:`tokens_to_json`; raises ``ValueError`` naming a bad colour or count."""
    vector = [0] * size
    for name, count in counts.items():
        colour = COLOUR_BY_NAME.get(name)
        if colour is None or colour >= size:
            raise ValueError(f"unknown colour {name!r}")
        if type(count) is not int or count < 0:
            raise ValueError(f"the count of {name} must be a whole number of zero or more")
        vector[colour] = count
    return tuple(vector)
