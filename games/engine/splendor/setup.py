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
        rng.shuffle(deck)
        decks.append(tuple(deck))
    nobles = tuple(sorted(rng.sample(range(len(NOBLES)), players + 1)))
    return Setup(players=players, seed=seed, decks=tuple(decks), nobles=nobles)


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
    empty_hand = PlayerState(
        tokens=(0, 0, 0, 0, 0, 0),
        cards=(),
        reserved=(),
        blind=(),
        nobles=(),
        bonuses=NO_GEMS,
        points=0,
    )
    return GameState(
        players=(empty_hand,) * setup.players,
        supply=(gems, gems, gems, gems, gems, GOLD_TOKENS),
        decks=tuple(deck[BOARD_WIDTH:] for deck in setup.decks),
        board=tuple(_first_slots(deck) for deck in setup.decks),
        nobles=setup.nobles,
        current=0,
        phase=MAIN,
        turn=0,
        passes_this_round=0,
        pending_nobles=(),
    )


def _first_slots(deck: tuple[int, ...]) -> tuple[int | None, ...]:
    dealt: list[int | None] = list(deck[:BOARD_WIDTH])
    return tuple(dealt + [None] * (BOARD_WIDTH - len(dealt)))


def _check_setup(setup: Setup) -> None:
    """A recorded setup must be a shuffle of the real decks: refuse anything else loudly."""
    if setup.players not in GEMS_PER_COLOUR:
        raise IllegalAction(f"Splendor is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if len(setup.decks) != len(LEVELS) or any(
        sorted(deck) != sorted(CARD_IDS_BY_LEVEL[level])
        for level, deck in zip(LEVELS, setup.decks, strict=True)
    ):
        raise IllegalAction("the setup's decks are not a shuffle of the game's cards")
    if len(set(setup.nobles)) != setup.players + 1 or not set(setup.nobles) <= set(
        range(len(NOBLES))
    ):
        raise IllegalAction("the setup must draw players + 1 different nobles")
