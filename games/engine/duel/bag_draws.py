"""The bag's recorded draw orders, each drawn from the game's seed the first time it is read.

A setup records one shuffle of 0 … 24 per replenishment (``setup.draw_orders``); a game reads a
dozen or so of them, most bots' and benchmarks' games are thrown away, and drawing all of them
at once was most of the time it takes to set a game up. :class:`DrawOrders` is the same sequence
of shuffles, drawn on demand from the generator the setup ends with: the generator's numbers are
kept in the order drawn, so the shuffles are the same whichever is read first, and whether the
others are ever read. It reads as a tuple of tuples, and equals and hashes as one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import repeat, starmap
from typing import Any, overload

from games.engine.duel.board import SPACES

_SPACE_INDEXES = range(SPACES)


class DrawOrders(Sequence[tuple[int, ...]]):
    """``count`` shuffles of the spaces' indexes; the ``n``-th sorts them by the ``n``-th 25
    numbers of ``next_key`` (independent uniform keys: a uniform shuffle)."""

    __slots__ = ("_hash", "_keys", "_next_key", "_orders")

    def __init__(self, next_key: Callable[[], float], count: int) -> None:
        self._next_key = next_key
        self._keys: list[float] = []
        self._orders: list[tuple[int, ...] | None] = [None] * count
        self._hash: int | None = None

    def __len__(self) -> int:
        return len(self._orders)

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[int, ...], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, ...] | tuple[tuple[int, ...], ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        order = self._orders[index]
        if order is None:
            order = self._draw(index % len(self._orders))
        return order

    def _draw(self, index: int) -> tuple[int, ...]:
        keys = self._keys
        start = index * SPACES
        end = start + SPACES
        if len(keys) < end:
            # One extend, run by C without a switch of threads between the numbers: the keys
            # stay the generator's numbers in the order drawn, even if two threads both extend.
            keys.extend(starmap(self._next_key, repeat((), end - len(keys))))
        order = tuple(sorted(_SPACE_INDEXES, key=keys[start:end].__getitem__))
        self._orders[index] = order
        return order

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return iter([self[index] for index in range(len(self._orders))])

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, DrawOrders | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __repr__(self) -> str:
        return f"DrawOrders({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as the tuple it reads as: the generator need not travel with it.
        return (tuple, (tuple(self),))
