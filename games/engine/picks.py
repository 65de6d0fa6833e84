"""The picks of a random playout, without ``randrange``'s checks at every step.

Both games' playout kernels (``splendor/playout.py``, ``duel/playout.py``) take ``pick(count)``
to choose among ``count`` options. This module makes no randomness of its own (it never seeds
nor builds a generator): it only reaches past ``randrange`` to the method that draws, for a
generator the caller already holds (or, for Duel's kernel, to its ``getrandbits``). It names
``random`` for the tests of type and method alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable

_RANDRANGE = random.Random.randrange


def direct_pick(pick: Callable[[int], int]) -> Callable[[int], int]:
    """``pick`` itself, or for a ``random.Random``'s ``randrange`` the method it calls.

    ``randrange(count)`` with a positive count returns ``_randbelow(count)``, as ``choice`` does
    (which is why their picks agree): the same number from the same generator, without
    ``randrange``'s checks of its arguments at every step of every playout.
    """
    generator = getattr(pick, "__self__", None)
    if type(generator) is random.Random and getattr(pick, "__func__", None) is _RANDRANGE:
        direct: Callable[[int], int] = generator._randbelow  # type: ignore[attr-defined]
        return direct
    return pick


_RANDBELOW = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


def generator_bits(pick: Callable[[int], int]) -> Callable[[int], int] | None:
    """For ``pick`` a ``random.Random``'s ``randrange`` (or ``_randbelow``), the generator's
    ``getrandbits``; else None.

    ``_randbelow(count)`` draws ``count.bit_length()`` bits until they make a number below
    ``count`` (``_randbelow_with_getrandbits``, which a plain ``Random`` uses: checked here),
    and a playout kernel may do the same where it picks most often, without a call.
    """
    generator = getattr(pick, "__self__", None)
    if type(generator) is not random.Random:
        return None
    method = getattr(pick, "__func__", None)
    below = getattr(generator._randbelow, "__func__", None)  # type: ignore[attr-defined]
    if below is _RANDBELOW and (method is _RANDRANGE or method is _RANDBELOW):
        bits: Callable[[int], int] = generator.getrandbits
        return bits
    return None
