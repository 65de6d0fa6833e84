"""The playout kernel counts a step's lines and discards instead of listing them, and works out
only the one picked: the count and every pick must be those of the engine's own lists
(``legality.lines_within`` and ``legality.discard_options``), in the same order.

``test_playout.py`` checks whole games; these check the counting directly, over many more
boards and hands than games reach: the full and the empty board, and hands of the game's tokens
with too many of them, from one token too many to all of them.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from games.engine.duel.board import SPACES
from games.engine.duel.catalogue import TOKEN_COUNTS
from games.engine.duel.legality import discard_options, lines_within
from games.engine.duel.playout_discards import pick_discard
from games.engine.duel.playout_lines import line_count, nth_line
from games.engine.duel.state import TOKEN_LIMIT

RANDOM_BOARDS = 3000


def boards() -> list[int]:
    """Masks of takeable spaces: empty, full, each space alone, and random ones of every
    density."""
    rng = random.Random(7)
    masks = [0, (1 << SPACES) - 1, *(1 << space for space in range(SPACES))]
    for _ in range(RANDOM_BOARDS):
        density = rng.random()
        masks.append(sum(1 << space for space in range(SPACES) if rng.random() < density))
    return masks


def test_the_lines_counted_and_picked_are_those_the_engine_lists() -> None:
    for takeable in boards():
        listed = [line.spaces for line in lines_within(takeable)]
        assert line_count(takeable) == len(listed), bin(takeable)
        assert [nth_line(takeable, index) for index in range(len(listed))] == listed


def test_a_line_past_the_last_is_refused() -> None:
    full = (1 << SPACES) - 1
    with pytest.raises(IndexError):
        nth_line(full, line_count(full))


HANDS = 1500


def hands_over_the_limit() -> list[list[int]]:
    """Hands of the game's tokens holding more than the limit: each excess from one token to
    every token of the game, then a sample of the others."""
    every = [
        list(hand)
        for hand in product(*(range(count + 1) for count in TOKEN_COUNTS))
        if sum(hand) > TOKEN_LIMIT
    ]
    rng = random.Random(5)
    by_excess = {sum(hand): hand for hand in rng.sample(every, len(every))}
    return [*by_excess.values(), *rng.sample(every, HANDS)]


def test_every_discard_picked_is_the_engine_s_option_of_that_index() -> None:
    hands = hands_over_the_limit()
    assert {sum(hand) for hand in hands} == set(range(TOKEN_LIMIT + 1, sum(TOKEN_COUNTS) + 1))
    rng = random.Random(11)
    for tokens in hands:
        listed = discard_options(tuple(tokens))
        # The first, the last and a random option of each hand (every one of a sample).
        indexes = {0, len(listed) - 1, rng.randrange(len(listed))}
        if rng.random() < 0.05:
            indexes = set(range(len(listed)))
        for index in indexes:
            counts: list[int] = []

            def pick(count: int, index: int = index, counts: list[int] = counts) -> int:
                counts.append(count)
                return index

            discarded = pick_discard(tokens, sum(tokens) - TOKEN_LIMIT, pick)
            assert counts == [len(listed)], tokens
            assert tuple(discarded) == listed[index], (tokens, index)
