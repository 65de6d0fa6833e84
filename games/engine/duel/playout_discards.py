"""A playout's discards: the ways to put back the tokens above the limit, counted, and only the
one picked worked out.

``legality.discard_options`` lists every multiset of the excess's size drawn from the colours
held, none more often than held, in the order of ``combinations_with_replacement``: by the
number of the first colour held put back, most first, then likewise colour by colour. A hand's
options are counted here colour by colour from the last (how many ways the colours from each
one on can make up each amount), and the picked one is read off those counts.
"""

from __future__ import annotations

from collections.abc import Callable


def pick_discard(tokens: list[int], excess: int, pick: Callable[[int], int]) -> list[int]:
    """How many of each colour to put back: ``discard_options(tokens)[pick(count)]``."""
    colours = len(tokens)
    if excess == 1 or excess == 2:
        # Most discards are of one token or two: their options are read off the colours held.
        held = [colour for colour in range(colours) if tokens[colour]]
        if excess == 2:
            return _pick_two(tokens, held, pick)
        discarded = [0] * colours
        discarded[held[pick(len(held))]] = 1
        return discarded
    # ways[colour][amount]: the ways colours colour, colour + 1, ... can make up ``amount``.
    ways: list[list[int]] = [[]] * (colours + 1)
    after = ways[colours] = [1] + [0] * excess
    for colour in range(colours - 1, -1, -1):
        most = tokens[colour]
        if most:
            # Up to ``most`` of this colour, the rest from the colours after it.
            after = [
                sum(after[amount - most if amount > most else 0 : amount + 1])
                for amount in range(excess + 1)
            ]
        ways[colour] = after
    index = pick(ways[0][excess])
    discarded = [0] * colours
    remaining = excess
    for colour in range(colours):
        if not remaining:
            break
        after = ways[colour + 1]
        for count in range(min(tokens[colour], remaining), -1, -1):
            options = after[remaining - count]
            if index < options:
                discarded[colour] = count
                remaining -= count
                break
            index -= options
    return discarded


def _pick_two(tokens: list[int], held: list[int], pick: Callable[[int], int]) -> list[int]:
    """Two tokens to put back: for each colour held in turn, two of it (if held twice) and
    then one of it with one of each later colour held."""
    later = len(held) - 1
    index = pick(later * (later + 1) // 2 + sum(1 for colour in held if tokens[colour] > 1))
    discarded = [0] * len(tokens)
    for position, colour in enumerate(held):
        if tokens[colour] > 1:
            if not index:
                discarded[colour] = 2
                return discarded
            index -= 1
        partners = later - position
        if index < partners:
            discarded[colour] = 1
            discarded[held[position + 1 + index]] = 1
            return discarded
        index -= partners
    raise IndexError("fewer ways to put back two tokens")
