"""Splendor Duel's cards and tokens as the table draws them: each card with its cost, bonus and
ability, what the viewer lacks for it and their moves on it (``table.table_for_viewer`` reads
these for the pyramid, the reserves and a card awaiting its ability)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.words import GEM_NAMES, LETTERS

TOKEN_COLOURS = ("white", "blue", "green", "red", "black", "pearl", "gold")
GEM_COLOURS = TOKEN_COLOURS[:5]
NAMES = {**GEM_NAMES, "pearl": "pearl"}
MARKS = {**LETTERS, "pearl": "P"}


ABILITIES: dict[str, dict[str, str]] = {
    "extra_turn": {"key": "extra_turn", "name": "Refresh", "icon": "↻",
                   "rule": "take another turn"},
    "take_token": {"key": "take_token", "name": "Gem", "icon": "+1",
                   "rule": "take a token of this card's colour from the board"},
    "privilege": {"key": "privilege", "name": "Privilege", "icon": "✉",
                  "rule": "take a privilege"},
    "steal": {"key": "steal", "name": "Take", "icon": "⇐",
              "rule": "take a gem or pearl token from the opponent"},
}  # fmt: skip
"""Card and royal abilities by the rulebook's names ("Card abilities"), with a mark each."""


def gem(colour: str, count: int = 0) -> dict[str, Any]:
    return {"colour": colour, "letter": MARKS[colour], "name": NAMES[colour], "count": count}


def counts_in_words(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{count} {colour}" for colour, count in counts.items() if count) or "nothing"


CARD_KINDS = {"joker": "5-Gem", None: "no-bonus"}
"""Cards outside the five colours, by the rulebook's name: the "5-Gem" card takes the colour of
a card it is placed with; a card without a bonus gives points (and crowns) only."""


class Buyer:
    """What one seated viewer holds, to tell a card they can afford from one they cannot, and
    the legal moves on each card (their turn's buy and reserve actions)."""

    def __init__(
        self, player: Mapping[str, Any] | None, actions: Sequence[Mapping[str, Any]]
    ) -> None:
        self.player = player
        self.moves: dict[int, list[dict[str, str]]] = {}
        for action in actions:
            if action["type"] in ("buy_card", "reserve_card"):
                self.moves.setdefault(action["card"], []).append(card_move(action))

    def shortfall(self, item: Mapping[str, Any]) -> dict[str, int]:
        """Tokens missing per colour once bonuses and tokens (gold aside) are counted."""
        assert self.player is not None
        tokens, bonuses = self.player["tokens"], self.player["bonuses"]
        return {
            colour: missing
            for colour in TOKEN_COLOURS
            if (missing := item["cost"].get(colour, 0) - bonuses.get(colour, 0)
                - tokens.get(colour, 0)) > 0
        }  # fmt: skip


def card_move(action: Mapping[str, Any]) -> dict[str, str]:
    if action["type"] == "reserve_card":
        label, css = "Reserve", "btn-reserve"
    else:
        paid = action.get("payment")
        label = f"Buy, paying {counts_in_words(paid)}" if paid else "Buy"
        css = "btn-buy"
    return {"label": label, "css": css, "json": json.dumps(action, separators=(",", ":"))}


def missing_words(missing: Mapping[str, int]) -> str:
    return " ".join(f"{count}{MARKS[colour]}" for colour, count in missing.items())


def card_view(item: Mapping[str, Any], buyer: Buyer | None = None) -> dict[str, Any]:
    if item.get("hidden"):
        return {"hidden": True, "level": item["level"]}
    colour = item["colour"]
    kind = colour if colour in GEM_COLOURS else CARD_KINDS[colour]
    name = colour if colour in GEM_COLOURS else ("5-Gem" if colour else "no bonus")
    card: dict[str, Any] = {
        "id": item["id"],
        "level": item["level"],
        "colour": kind,
        "name": f"{name} card",
        "bonus": item["bonus"],
        "bonus_gem": gem(colour, item["bonus"]) if colour in GEM_COLOURS else None,
        "points": item["points"],
        "crowns": item["crowns"],
        "crown_marks": "♛" * item["crowns"],
        "ability": ABILITIES.get(item["ability"]),
        "cost": [
            gem(colour, item["cost"][colour])
            for colour in TOKEN_COLOURS
            if item["cost"].get(colour)
        ],
        "blind": bool(item.get("blind")),
        "placed_as": item.get("placed_as"),
        "affordable": False,
        "needs": "",
        "gold_covers": "",
        "moves": [],
    }
    if buyer is None or buyer.player is None:
        return card
    card["moves"] = buyer.moves.get(item["id"], [])
    missing = buyer.shortfall(item)
    gold = buyer.player["tokens"].get("gold", 0)
    short = sum(missing.values())
    joker_blocked = colour == "joker" and not any(buyer.player["bonuses"].values())
    card["affordable"] = short <= gold and not joker_blocked
    if joker_blocked:
        card["needs"] = "needs a card with a bonus"
    elif short and short <= gold:
        card["gold_covers"] = f"gold covers {missing_words(missing)}"
    elif short:
        card["needs"] = f"needs {missing_words(missing)}" + (
            f", gold covers {gold}" if gold else ""
        )
    return card
