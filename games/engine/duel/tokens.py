"""Token colours and token vectors of Splendor Duel.

A token vector is a tuple of seven counts: the five gem colours (white, blue, green, red, black,
the colour order of the cards), then pearl, then gold. A card's cost has the first six (gold is
never a cost); bonuses have the first five (there are no pearl bonuses).
"""

from __future__ import annotations

from collections.abc import Mapping

WHITE, BLUE, GREEN, RED, BLACK, PEARL, GOLD = range(7)
GEM_COLOURS: tuple[int, ...] = (WHITE, BLUE, GREEN, RED, BLACK)
COST_COLOURS: tuple[int, ...] = (*GEM_COLOURS, PEARL)
"""What a card can cost, and what a line, a privilege or a steal can take: never gold."""
TOKEN_COLOURS: tuple[int, ...] = (*COST_COLOURS, GOLD)
COLOUR_NAMES: tuple[str, ...] = ("white", "blue", "green", "red", "black", "pearl", "gold")
COLOUR_BY_NAME: dict[str, int] = {name: index for index, name in enumerate(COLOUR_NAMES)}

Tokens = tuple[int, ...]
"""Seven token counts (white, blue, green, red, black, pearl, gold)."""
Cost = tuple[int, ...]
"""Six counts (the gem colours and pearl): what a card costs."""
Gems = tuple[int, ...]
"""Five counts, one per gem colour: bonuses, or points per colour."""

NO_TOKENS: Tokens = (0,) * len(TOKEN_COLOURS)
NO_GEMS: Gems = (0,) * len(GEM_COLOURS)


def tokens_to_json(tokens: tuple[int, ...]) -> dict[str, int]:
    """The non-zero counts keyed by colour name (``{"pearl": 1, "gold": 2}``)."""
    return {COLOUR_NAMES[colour]: count for colour, count in enumerate(tokens) if count}


def tokens_from_json(counts: Mapping[str, object], size: int = len(TOKEN_COLOURS)) -> Tokens:
    """The inverse of :func:`tokens_to_json`; ``ValueError`` names a bad colour or count."""
    vector = [0] * size
    for name, count in counts.items():
        colour = COLOUR_BY_NAME.get(name)
        if colour is None or colour >= size:
            raise ValueError(f"unknown colour {name!r}")
        if type(count) is not int or count < 0:
            raise ValueError(f"the count of {name} must be a whole number of zero or more")
        vector[colour] = count
    return tuple(vector)
