"""The picks of a random playout, without ``randrange``'s checks at every step.

Both games' playout kernels (``splendor/playout.py``, ``duel/playout.py``) take ``pick(count)``
to choose among ``count`` options. This module makes no randomness of its own (it never seeds
nor builds a generator): it only reaches past ``randrange`` to the method that draws, for a
generator the caller already holds. It names ``random`` for the type test alone.
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
