"""Setting up a game: all of its randomness is drawn here, from the seed, and recorded.

Rulebook, "Setup": shuffle the three decks, reveal 3/4/5 cards of levels 3/2/1, lay the 25
tokens on the board from the bag along the spiral, choose the first player at random; the other
player takes a privilege. The bag is drawn again at every replenishment, so the order of those
draws is drawn here too (docs/decisions/0042-duel-bag-from-the-setup.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any

from games.engine.duel.bag_draws import DrawOrders
from games.engine.duel.board import EMPTY, SPACES, lay_out
from games.engine.duel.catalogue import (
    CARD_IDS_BY_LEVEL,
    LEVELS,
    PYRAMID_WIDTHS,
    ROYALS,
    TOKEN_COUNTS,
)
from games.engine.duel.players import EMPTY_HAND
from games.engine.duel.state import MAIN, PLAYERS, DuelState, Setup
from games.engine.duel.tokens import NO_TOKENS, TOKEN_COLOURS
from games.engine.errors import IllegalAction

RECORDED_REPLENISHMENTS = 64
"""Draw orders recorded for replenishing the board; a game that replenishes more often uses
them again from the first (docs/decisions/0042-duel-bag-from-the-setup.md)."""


def new_game(players: int, seed: int, options: Mapping[str, Any] | None = None) -> Setup:
    """Shuffle the decks and the tokens, choose the first player and the bag's draw orders."""
    if players != PLAYERS or type(players) is not int:
        raise IllegalAction(f"Splendor Duel is played by {PLAYERS} players")
    if options:
        raise IllegalAction(f"unknown option(s): {', '.join(sorted(options))}")
    rng = random.Random(seed)
    shuffle = _shuffler(rng)
    decks = []
    for level in LEVELS:
        deck = list(CARD_IDS_BY_LEVEL[level])
        shuffle(deck)
        decks.append(tuple(deck))
    tokens = list(_ALL_TOKENS)
    shuffle(tokens)
    first_player = rng.randrange(PLAYERS)
    bag_draws = draw_orders(rng)
    return Setup(
        seed=seed,
        first_player=first_player,
        decks=tuple(decks),
        tokens=tuple(tokens),
        bag_draws=bag_draws,
    )


_ALL_TOKENS = tuple(colour for colour in TOKEN_COLOURS for _ in range(TOKEN_COUNTS[colour]))


@cache
def _swaps(length: int) -> tuple[tuple[int, int], ...]:
    """A shuffle's swaps for ``length`` items: each place from the last down, with the number
    of bits ``_randbelow(place + 1)`` draws."""
    return tuple((last, (last + 1).bit_length()) for last in range(length - 1, 0, -1))


_RANDBELOW_WITH_GETRANDBITS = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
"""The draw a plain ``random.Random`` makes for ``_randbelow``: the one ``_shuffler`` repeats."""


def _shuffler(rng: random.Random) -> Callable[[list[int]], None]:
    """``rng.shuffle``, or for a plain ``random.Random`` the same shuffle without a call per
    item: every game's setup shuffles 92 items, a noticeable share of a playout's time.

    ``Random.shuffle`` swaps each item, from the last down, with one at ``_randbelow(i + 1)``;
    ``_randbelow`` (``_randbelow_with_getrandbits``, checked here) draws
    ``(i + 1).bit_length()`` bits until they make a number below ``i + 1``. The same numbers
    are drawn here in the same order, so the same seed still gives the same game
    (``tests/engine/duel/test_rules_setup.py`` compares both).
    """
    below = getattr(rng._randbelow, "__func__", None)  # type: ignore[attr-defined]
    if type(rng) is not random.Random or below is not _RANDBELOW_WITH_GETRANDBITS:
        return rng.shuffle
    getrandbits = rng.getrandbits

    def shuffle(items: list[int]) -> None:
        for last, size in _swaps(len(items)):
            other = getrandbits(size)
            while other > last:
                other = getrandbits(size)
            items[last], items[other] = items[other], items[last]

    return shuffle


def draw_orders(rng: random.Random) -> DrawOrders:
    """The recorded orders of the bag's draws, one shuffle of 0 … 24 per replenishment.

    Drawn from ``rng`` as the game reads them (``bag_draws.py``): ``rng`` must not be used for
    anything else afterwards.
    """
    return DrawOrders(rng.random, RECORDED_REPLENISHMENTS)


def reshuffled(pools: list[list[int]], seed: int) -> DrawOrders:
    """Shuffle each card pool in place and draw the bag's orders, all from ``seed``: a fork's
    randomness, drawn here as every game's is. Returns the bag's draw orders."""
    rng = random.Random(seed)
    for pool in pools:
        rng.shuffle(pool)
    return draw_orders(rng)


def initial_state(setup: Setup) -> DuelState:
    """The pyramid dealt, the tokens on the board, and a privilege for the second player.

    A setup from a position (a fork) starts from that position instead: it was checked when
    built, and its draw orders are the setup's.
    """
    if setup.position is not None:
        return setup.position
    check_setup(setup)
    second = EMPTY_HAND._replace(privileges=1)
    players = (EMPTY_HAND, second) if setup.first_player == 0 else (second, EMPTY_HAND)
    return DuelState(
        players=players,
        board=lay_out((EMPTY,) * SPACES, setup.tokens),
        bag=NO_TOKENS,
        bag_draws=setup.bag_draws,
        replenishments=0,
        decks=tuple(
            deck[PYRAMID_WIDTHS[level] :] for level, deck in zip(LEVELS, setup.decks, strict=True)
        ),
        pyramid=tuple(
            _first_slots(deck, PYRAMID_WIDTHS[level])
            for level, deck in zip(LEVELS, setup.decks, strict=True)
        ),
        royals=tuple(royal.id for royal in ROYALS),
        current=setup.first_player,
        phase=MAIN,
        turn=0,
        extra_turn=False,
        pending_card=None,
        royal_due=False,
        passes=0,
    )


def _first_slots(deck: tuple[int, ...], width: int) -> tuple[int | None, ...]:
    dealt: list[int | None] = list(deck[:width])
    return tuple(dealt + [None] * (width - len(dealt)))


def check_setup(setup: Setup) -> None:
    """A recorded setup must be a shuffle of the real game: refuse anything else loudly."""
    if setup.first_player not in range(PLAYERS):
        raise IllegalAction("the first player must be seat 0 or 1")
    if len(setup.decks) != len(LEVELS) or any(
        sorted(deck) != cards for cards, deck in zip(_SORTED_DECKS, setup.decks, strict=True)
    ):
        raise IllegalAction("the setup's decks are not a shuffle of the game's cards")
    if sorted(setup.tokens) != _SORTED_TOKENS:
        raise IllegalAction("the setup's tokens are not the game's 25 tokens")
    # Orders drawn here are shuffles by construction; recorded ones are checked.
    bag_draws = setup.bag_draws
    if not isinstance(bag_draws, DrawOrders) and not _are_shuffles_of_the_spaces(tuple(bag_draws)):
        raise IllegalAction("each of the setup's bag draws must be a shuffle of 0 to 24")


_SORTED_DECKS = [sorted(CARD_IDS_BY_LEVEL[level]) for level in LEVELS]
_SORTED_TOKENS = sorted(_ALL_TOKENS)
_EVERY_SPACE = list(range(SPACES))


@lru_cache(maxsize=256)
def _are_shuffles_of_the_spaces(bag_draws: tuple[tuple[int, ...], ...]) -> bool:
    """Whether there are draw orders, each a shuffle of 0 … 24.

    Remembered: the same recorded setup is checked each time a game starts from it (a replay,
    a bot's playouts), and 64 orders take far longer to sort than to hash.
    """
    return bool(bag_draws) and all(sorted(order) == _EVERY_SPACE for order in bag_draws)
