"""Each game's analytics facts, read from the one registry of games (``games.variants.GAMES``).

A game's package says how its play folds into facts, its catalogue of cards and nobles, its own
numbers and its words on the stats pages (``games.variants.play_facts.GameAnalytics``, in
``games.variants.<game>.facts``). The shared code of this app reaches a game only through
:func:`analytics_for`; every game the site offers is counted (the start-up check refuses a game
without its analytics facts).
"""

from __future__ import annotations

from games.variants import GAMES
from games.variants.play_facts import GameAnalytics


def analytics_for(variant: str) -> GameAnalytics:
    game = GAMES.get(variant)
    if game is None:
        raise LookupError(f"no analytics for variant {variant!r}")
    return game.analytics


def known_variants() -> tuple[str, ...]:
    return tuple(GAMES)
