"""Which cards a player can afford, worked out once per state from per-colour tables.

``legal_actions`` asks this of every face-up and reserved card in every position a bot or a
playout visits, so the answer for all 90 cards is computed at once with big-integer arithmetic:

- Without gold, a card is affordable when each colour's cost is within the player's spending
  power in that colour (bonus plus tokens). ``WITHIN[colour][power]`` is the set of cards (one
  bit per card id) whose cost in ``colour`` is at most ``power``; the five sets are intersected.
- With gold, a card is affordable when its shortfall summed over the colours is at most the
  gold held. ``_SHORTFALL[colour][power]`` packs every card's shortfall in ``colour`` into an
  8-bit slot per card; the five are added, slot by slot, with ``127 - gold`` in each slot, so a
  slot's top bit is set exactly when that card's shortfall exceeds the gold.

The tables cover every spending power a game can reach (18 cards of a colour plus 7 tokens);
a hand-built position beyond them falls back to the plain sums, with the same answer.
"""

from __future__ import annotations

from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.gems import GEM_COLOURS, GOLD, Gems, Tokens

_SLOT_BITS = 8
_SLOT_TOP = 1 << (_SLOT_BITS - 1)
POWER_LIMIT = 32
"""Spending powers 0..31 per colour are tabled: more than any game can reach."""

_CARD_COSTS: tuple[Gems, ...] = tuple(card.cost for card in CARDS)

WITHIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << card for card, cost in enumerate(_CARD_COSTS) if cost[colour] <= power)
        for power in range(POWER_LIMIT)
    )
    for colour in GEM_COLOURS
)
_SHORTFALL: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            max(0, cost[colour] - power) << (_SLOT_BITS * card)
            for card, cost in enumerate(_CARD_COSTS)
        )
        for power in range(POWER_LIMIT)
    )
    for colour in GEM_COLOURS
)
_GOLD_BIAS: tuple[int, ...] = tuple(
    sum((_SLOT_TOP - 1 - gold) << (_SLOT_BITS * card) for card in range(len(CARDS)))
    for gold in range(_SLOT_TOP - 40)
)
"""Per gold count, ``127 - gold`` in every card's slot (a shortfall is at most 35)."""
_TOP_BIT_OF: tuple[int, ...] = tuple(
    _SLOT_BITS * card + _SLOT_BITS - 1 for card in range(len(CARDS))
)
"""Per card, the bit of a packed shortfall that is set when the card is out of reach."""


def affordable(tokens: Tokens, bonuses: Gems, candidates: tuple[int, ...]) -> list[int]:
    """The cards among ``candidates`` the player can afford, in the order given.

    Right with or without gold; without gold, ``legality`` intersects the ``WITHIN`` sets
    itself, which is quicker still."""
    try:
        over = (
            _SHORTFALL[0][bonuses[0] + tokens[0]]
            + _SHORTFALL[1][bonuses[1] + tokens[1]]
            + _SHORTFALL[2][bonuses[2] + tokens[2]]
            + _SHORTFALL[3][bonuses[3] + tokens[3]]
            + _SHORTFALL[4][bonuses[4] + tokens[4]]
            + _GOLD_BIAS[tokens[GOLD]]
        )
    except IndexError:
        return [card for card in candidates if _is_affordable_by_sums(tokens, bonuses, card)]
    top_bit = _TOP_BIT_OF
    return [card for card in candidates if not over >> top_bit[card] & 1]


CARD_BITS: tuple[int, ...] = tuple(1 << card for card in range(len(CARDS)))
"""Each card's bit in a mask of cards."""


def card_mask(cards: tuple[int, ...]) -> int:
    """The bit mask with the bit of each of ``cards`` set."""
    mask = 0
    for card in cards:
        mask |= CARD_BITS[card]
    return mask


def _is_affordable_by_sums(tokens: Tokens, bonuses: Gems, card: int) -> bool:
    """The rule itself, for spending powers beyond the tables."""
    cost = _CARD_COSTS[card]
    shortfall = sum(
        max(0, cost[colour] - bonuses[colour] - tokens[colour]) for colour in GEM_COLOURS
    )
    return shortfall <= tokens[GOLD]
