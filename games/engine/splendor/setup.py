"""Setting up a game: all of its randomness is drawn here, from the seed, and recorded."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engine.errors import IllegalAction
from games.engine.splendor.catalogue import CARD_IDS_BY_LEVEL, LEVELS, NOBLES
from games.engine.splendor.gems import NO_GEMS
from games.engine.splendor.state import BOARD_WIDTH, MAIN, GameState, PlayerState, Setup

MIN_PLAYERS = 2
MAX_PLAYERS = 4
GOLD_TOKENS = 5
GEMS_PER_COLOUR: dict[int, int] = {2: 4, 3: 5, 4: 7}
"""Rulebook: with 2 players remove 3 of each gem colour, with 3 remove 2; gold is never removed."""


def new_game(players: int, seed: int, options: Mapping[str, Any] | None = None) -> Setup:
    """Shuffle each level's deck and draw players + 1 nobles, from ``seed`` alone."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(f"Splendor is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if options:
        raise IllegalAction(f"unknown option(s): {', '.join(sorted(options))}")
    rng = random.Random(seed)
    decks = []
    for level in LEVELS:
        deck = list(CARD_IDS_BY_LEVEL[level])
        _shuffle(deck, rng)
        decks.append(tuple(deck))
    nobles = tuple(sorted(rng.sample(range(len(NOBLES)), players + 1)))
    return Setup(players=players, seed=seed, decks=tuple(decks), nobles=nobles)


def _shuffle(deck: list[int], rng: random.Random) -> None:
    """``rng.shuffle(deck)``, in one loop: the same draws from ``rng`` in the same order, so
    the same deck (``tests/engine/test_rules_setup.py`` compares them over many seeds).

    Every game's setup shuffles 90 cards, and ``Random.shuffle`` makes two Python calls per
    card: unrolled, a random playout's setup costs about half as much."""
    getrandbits = rng.getrandbits
    for last in range(len(deck) - 1, 0, -1):
        # A uniform index in 0..last, as ``Random._randbelow``: draw bits until one fits.
        bits = (last + 1).bit_length()
        chosen = getrandbits(bits)
        while chosen > last:
            chosen = getrandbits(bits)
        deck[last], deck[chosen] = deck[chosen], deck[last]


def shuffled(piles: list[list[int]], seed: int) -> list[list[int]]:
    """Each pile shuffled, from ``seed`` alone: the randomness of a game begun from a position."""
    rng = random.Random(seed)
    result = []
    for pile in piles:
        pile = list(pile)
        rng.shuffle(pile)
        result.append(pile)
    return result


def initial_state(setup: Setup) -> GameState:
    """Deal four cards of each level face up and lay out the supply for the player count.

    A setup from a position starts from that position instead (it was checked when built).
    """
    if setup.position is not None:
        return setup.position
    _check_setup(setup)
    gems = GEMS_PER_COLOUR[setup.players]
    return GameState(
        players=(_EMPTY_HAND,) * setup.players,
        supply=(gems, gems, gems, gems, gems, GOLD_TOKENS),
        decks=tuple([deck[BOARD_WIDTH:] for deck in setup.decks]),
        board=tuple([_first_slots(deck) for deck in setup.decks]),
        nobles=setup.nobles,
        current=0,
        phase=MAIN,
        turn=0,
        passes_this_round=0,
        pending_nobles=(),
    )


_EMPTY_HAND = PlayerState(
    tokens=(0, 0, 0, 0, 0, 0), cards=(), reserved=(), blind=(), nobles=(), bonuses=NO_GEMS, points=0
)
"""Every player's hand at the start (immutable, so one value serves every seat)."""


def _first_slots(deck: tuple[int, ...]) -> tuple[int | None, ...]:
    if len(deck) >= BOARD_WIDTH:
        return deck[:BOARD_WIDTH]
    dealt: list[int | None] = list(deck[:BOARD_WIDTH])
    return tuple(dealt + [None] * (BOARD_WIDTH - len(dealt)))


def _check_setup(setup: Setup) -> None:
    """A recorded setup must be a shuffle of the real decks: refuse anything else loudly."""
    if setup.players not in GEMS_PER_COLOUR:
        raise IllegalAction(f"Splendor is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    decks = setup.decks
    if len(decks) != len(LEVELS):
        raise IllegalAction("the setup's decks are not a shuffle of the game's cards")
    for deck, cards in zip(decks, _CARDS_OF_EACH_LEVEL, strict=True):
        if sorted(deck) != cards:
            raise IllegalAction("the setup's decks are not a shuffle of the game's cards")
    nobles = set(setup.nobles)
    if len(nobles) != setup.players + 1 or not nobles <= _NOBLE_IDS:
        raise IllegalAction("the setup must draw players + 1 different nobles")


_CARDS_OF_EACH_LEVEL: tuple[list[int], ...] = tuple(
    sorted(CARD_IDS_BY_LEVEL[level]) for level in LEVELS
)
"""Each level's card ids in order, which a recorded deck must be a shuffle of."""
_NOBLE_IDS: frozenset[int] = frozenset(range(len(NOBLES)))
