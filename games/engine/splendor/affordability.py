"""Which cards a player can afford, worked out once per state from per-colour tables.

``legal_actions`` asks this of every face-up and reserved card in every position a bot or a
playout visits, so the answer for all 90 cards is computed at once with big-integer arithmetic.
Each card has an 8-bit slot (byte ``card`` of the number, little-endian):

- A card is affordable when its shortfall, summed over the colours, is at most the gold held;
  a colour's shortfall is how far its cost exceeds the player's spending power in that colour
  (bonus plus tokens). ``_SHORTFALL[colour][power]`` packs every card's shortfall in
  ``colour`` into its slot.
- :func:`affordable_slots` starts from ``128 + gold`` in every slot and subtracts the five
  packed shortfalls: a slot stays at 128 or more (its top bit set) exactly when that card's
  shortfall is within the gold. No slot borrows from its neighbour, since a shortfall is at most
  35. The result, masked with the slots' top bits (:data:`TOP_BIT`), is the affordable cards.

Kept in bytes, the answer can be read in any order of cards at C speed: ``to_bytes`` gives one
byte per card, which ``legality`` picks out in the board's order.

The tables cover every spending power a game can reach (18 cards of a colour plus 7 tokens);
a hand-built position beyond them falls back to the plain sums, with the same answer.
"""

from __future__ import annotations

from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.gems import GEM_COLOURS, GOLD, Gems, Tokens

SLOT_BYTES = len(CARDS)
"""The bytes of a packed answer: one per card."""
_SLOT_BITS = 8
_SLOT_TOP = 1 << (_SLOT_BITS - 1)
POWER_LIMIT = 32
"""Spending powers 0..31 per colour are tabled: more than any game can reach."""
_GOLD_LIMIT = 64
"""Gold counts 0..63 are tabled (a game has five)."""

_CARD_COSTS: tuple[Gems, ...] = tuple(card.cost for card in CARDS)

TOP_BIT: tuple[int, ...] = tuple(_SLOT_TOP << (_SLOT_BITS * card) for card in range(len(CARDS)))
"""Per card, the top bit of its slot: set in :func:`affordable_slots` when it is affordable."""
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
    sum((_SLOT_TOP + gold) << (_SLOT_BITS * card) for card in range(len(CARDS)))
    for gold in range(_GOLD_LIMIT)
)
"""Per gold count, ``128 + gold`` in every card's slot."""
SHORTFALL_WHITE, SHORTFALL_BLUE, SHORTFALL_GREEN, SHORTFALL_RED, SHORTFALL_BLACK = _SHORTFALL
GOLD_BIAS = _GOLD_BIAS
"""The tables by name, for ``legality`` to read inline (a call costs as much as the sums)."""


def affordable_slots(tokens: Tokens, bonuses: Gems) -> int:
    """Every card's slot, with its top bit set when the player can afford it.

    Mask with :data:`TOP_BIT` to keep only the answer; ``legality`` inlines this."""
    try:
        return (
            _GOLD_BIAS[tokens[GOLD]]
            - _SHORTFALL[0][bonuses[0] + tokens[0]]
            - _SHORTFALL[1][bonuses[1] + tokens[1]]
            - _SHORTFALL[2][bonuses[2] + tokens[2]]
            - _SHORTFALL[3][bonuses[3] + tokens[3]]
            - _SHORTFALL[4][bonuses[4] + tokens[4]]
        )
    except IndexError:
        return affordable_by_sums(tokens, bonuses)


def affordable_by_sums(tokens: Tokens, bonuses: Gems) -> int:
    """The rule itself, in the same packed form, for a hand beyond the tables."""
    slots = 0
    for card, cost in enumerate(_CARD_COSTS):
        shortfall = sum(
            max(0, cost[colour] - bonuses[colour] - tokens[colour]) for colour in GEM_COLOURS
        )
        if shortfall <= tokens[GOLD]:
            slots |= TOP_BIT[card]
    return slots


def is_affordable(tokens: Tokens, bonuses: Gems, card: int) -> bool:
    """Whether the player can pay for ``card``, gold standing in for any shortfall."""
    return bool(affordable_slots(tokens, bonuses) & TOP_BIT[card])
