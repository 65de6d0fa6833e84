"""What training needs of each game: its Expert part (``games.variants.base.ExpertBot``).

Each game's package carries its encoder, its Expert chooser, its network's file and the search
budget of its training games; the app reads them from the one registry of games.
"""

from __future__ import annotations

from games.variants import GAMES
from games.variants.base import ExpertBot


def expert_of(variant: str) -> ExpertBot:
    """The game's Expert part; ``KeyError`` for an unknown game."""
    return GAMES[variant].expert


def has_expert(variant: str) -> bool:
    return variant in GAMES
