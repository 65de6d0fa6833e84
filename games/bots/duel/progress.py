"""Progress toward a purchase in Splendor Duel: the measure behind the wasted-take rule.

The rule is the base game's (``games.bots.progress``): a take that ends the turn over ten tokens
and whose discards leave the player no nearer to a purchase gained nothing, and ranks below
every other action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine.duel.catalogue import CARDS, JOKER
from games.engine.duel.legality import shortfall
from games.engine.duel.tokens import GOLD

NOTHING_IN_SIGHT = 0
"""The nearest purchase when no card can be bought: no take brings it nearer."""

_IS_JOKER = tuple(card.colour == JOKER for card in CARDS)


def nearest_purchase(tokens: Sequence[int], bonuses: Sequence[int], cards: Iterable[int]) -> int:
    """The fewest tokens the hand still lacks for one of ``cards``, once its gold is spent.

    Zero when one of them is affordable (or when there is none). A joker card counts only for a
    player with a bonus for it to join: without one it cannot be bought at all.
    """
    gold = tokens[GOLD]
    has_bonus = any(bonuses)
    nearest = None
    for card in cards:
        if _IS_JOKER[card] and not has_bonus:
            continue
        lacking = max(0, shortfall(tokens, bonuses, card) - gold)
        if nearest is None or lacking < nearest:
            nearest = lacking
    return NOTHING_IN_SIGHT if nearest is None else nearest
