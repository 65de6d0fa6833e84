"""The random bot: any legal action, uniformly."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots.determinize import sample_state
from games.engine import Action, legal_actions


def choose(view: Mapping[str, Any], rng: random.Random) -> Action:
    """A uniformly random legal action for the seat to act in ``view``.

    The legal actions depend only on what the view shows, so any determinisation lists them.
    """
    return rng.choice(legal_actions(sample_state(view, rng)))
