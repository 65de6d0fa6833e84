"""What a player can spend, and what a card still needs: figures the table shows so nobody has
to add tokens and bonuses in their head.

Reads the player's part of a viewer's view (``tokens``, ``bonuses``); never a private state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.variants.splendor.forms import GEM_COLOURS
from games.variants.words import GEM_NAMES, LETTERS


def power_by_colour(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per colour: the bonus (cards), the tokens, and their sum; gold last (tokens only)."""
    tokens, bonuses = player["tokens"], player["bonuses"]
    columns = [
        {
            "colour": colour,
            "letter": LETTERS[colour],
            "name": GEM_NAMES[colour],
            "bonus": bonuses.get(colour, 0),
            "tokens": tokens.get(colour, 0),
            "count": bonuses.get(colour, 0) + tokens.get(colour, 0),
        }
        for colour in GEM_COLOURS
    ]
    gold = tokens.get("gold", 0)
    columns.append(
        {
            "colour": "gold",
            "letter": LETTERS["gold"],
            "name": GEM_NAMES["gold"],
            "bonus": None,
            "tokens": gold,
            "count": gold,
        }
    )
    return columns


def shortfall(player: Mapping[str, Any], cost: Mapping[str, int]) -> dict[str, Any] | None:
    """What ``player`` lacks for a card of ``cost``: each colour's shortfall after bonuses and
    tokens, and how much of it their gold covers; None when gold covers it all."""
    tokens, bonuses = player["tokens"], player["bonuses"]
    missing = {
        colour: need
        for colour in GEM_COLOURS
        if (need := cost.get(colour, 0) - bonuses.get(colour, 0) - tokens.get(colour, 0)) > 0
    }
    total = sum(missing.values())
    gold = tokens.get("gold", 0)
    if total <= gold:
        return None
    text = " ".join(f"{count}{LETTERS[colour]}" for colour, count in missing.items())
    if gold:
        text += f" (gold covers {gold})"
    return {"text": f"needs {text}", "total": total - gold}
