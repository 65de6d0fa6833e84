"""The Duel random bot: any legal action, uniformly."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots.duel.determinize import DuelDeterminizer
from games.engine import Action, legal_actions


def choose(view: Mapping[str, Any], rng: random.Random) -> Action:
    """A uniformly random legal action: the legal actions depend only on what the view shows."""
    return rng.choice(legal_actions(DuelDeterminizer(view).sample(rng)))
