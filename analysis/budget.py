"""What an analysis is worth and what it costs: its version, budgets and marks, in one place.

A stored analysis is kept for one (game, ``ANALYSIS_VERSION``, settings): changing how
positions are evaluated means a new version, changing a budget means new settings, and either
makes the next request compute a new analysis rather than serve the old one.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings

from games.variants import game_for

ANALYSIS_VERSION = 2
"""Bump when the evaluation changes in a way the settings do not say (the bots' search, the
marks' thresholds): analyses of an older version are then computed again when asked for.
2: the Duel's hand-set chances at 12 points a unit of log-odds, not 3 (issue 27)."""

INACCURACY = 0.08
MISTAKE = 0.15
BLUNDER = 0.25
"""Marks by the drop in the mover's chance to win between the move the analysis prefers and the
move played (chances in [0, 1]): at least 8 points of percentage an inaccuracy, 15 a mistake,
25 a blunder. Lower drops are within the noise of a few hundred playouts."""

MARKS: tuple[tuple[float, str], ...] = (
    (BLUNDER, "blunder"),
    (MISTAKE, "mistake"),
    (INACCURACY, "inaccuracy"),
)


def mark_for(drop: float) -> str | None:
    """The mark a move's drop in winning chance earns, worst first; None below every threshold."""
    for threshold, mark in MARKS:
        if drop >= threshold - 1e-9:
            return mark
    return None


def settings_for(variant: str) -> dict[str, Any]:
    """The settings an analysis of a ``variant`` game runs with now: its package's documented
    budget and the network judging, if any (``Game.position_judge``); tests may lower the
    budget through ``ANALYSIS_BUDGET_SCALE`` (it then names other settings: never mixed with
    real ones)."""
    scale = float(getattr(settings, "ANALYSIS_BUDGET_SCALE", 1.0))
    return game_for(variant).position_judge.settings(scale)


def settings_key(analysis_settings: dict[str, Any]) -> str:
    """The settings as a stable string: the uniqueness key of a stored analysis."""
    return json.dumps(analysis_settings, sort_keys=True, separators=(",", ":"))
