"""The bag's draw orders are drawn from the seed as a game reads them, and are the same shuffles
that drawing them all at setup gave: the ``n``-th sorts 0 … 24 by the ``n``-th 25 numbers the
setup's generator draws once the decks, the tokens and the first player are chosen.
"""

from __future__ import annotations

import copy
import pickle
import random

import games.engine as engine
from games.engine.duel.bag_draws import DrawOrders
from games.engine.duel.catalogue import CARD_IDS_BY_LEVEL, LEVELS, TOKEN_COUNTS
from games.engine.duel.setup import RECORDED_REPLENISHMENTS
from games.engine.duel.state import Setup
from games.engine.duel.tokens import TOKEN_COLOURS

SPACES = 25


def drawn_at_once(seed: int) -> tuple[Setup, tuple[tuple[int, ...], ...]]:
    """The setup's decks and every draw order drawn in one go, as setups were once drawn."""
    rng = random.Random(seed)
    decks = []
    for level in LEVELS:
        deck = list(CARD_IDS_BY_LEVEL[level])
        rng.shuffle(deck)
        decks.append(tuple(deck))
    tokens = [colour for colour in TOKEN_COLOURS for _ in range(TOKEN_COUNTS[colour])]
    rng.shuffle(tokens)
    first_player = rng.randrange(2)
    keys = [rng.random() for _ in range(RECORDED_REPLENISHMENTS * SPACES)]
    orders = tuple(
        tuple(sorted(range(SPACES), key=lambda space, start=start: keys[start + space]))
        for start in range(0, len(keys), SPACES)
    )
    setup = Setup(seed, first_player, tuple(decks), tuple(tokens), orders)
    return setup, orders


def test_a_setups_draw_orders_are_those_drawn_at_once_whatever_the_order_they_are_read_in() -> None:
    for seed in range(40):
        expected_setup, expected = drawn_at_once(seed)
        setup = engine.new_game("duel", 2, seed)
        assert isinstance(setup, Setup)
        assert isinstance(setup.bag_draws, DrawOrders)
        assert setup._replace(bag_draws=expected) == expected_setup
        scrambled = list(range(RECORDED_REPLENISHMENTS))
        random.Random(seed).shuffle(scrambled)
        read = {index: setup.bag_draws[index] for index in scrambled}
        assert tuple(read[index] for index in range(RECORDED_REPLENISHMENTS)) == expected


def test_draw_orders_read_compare_and_hash_as_the_tuple_they_stand_for() -> None:
    draws = DrawOrders(random.Random(5).random, 8)
    same = DrawOrders(random.Random(5).random, 8)
    other = DrawOrders(random.Random(6).random, 8)
    assert draws[-1] == draws[7]
    as_tuple = tuple(draws)
    assert len(draws) == len(as_tuple) == 8
    assert all(sorted(order) == list(range(SPACES)) for order in as_tuple)
    assert draws[2:5] == as_tuple[2:5]
    assert draws == as_tuple
    assert as_tuple == draws
    assert draws == same
    assert draws != other
    assert as_tuple != other
    assert draws != list(as_tuple)
    assert hash(draws) == hash(as_tuple) == hash(same)
    assert {as_tuple: "found"}[draws] == "found"
    assert pickle.loads(pickle.dumps(draws)) == as_tuple
    assert copy.deepcopy(draws) == as_tuple
    state = engine.initial_state(engine.new_game("duel", 2, 5))
    assert state == state._replace(bag_draws=tuple(state.bag_draws))
