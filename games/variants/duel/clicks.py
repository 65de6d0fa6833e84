"""Splendor Duel's decisions made by clicking a thing on the table, for the page's script.

The page lists every legal action as a button (``games.variants.duel.table``); with its script
(static/game.js) a player makes the same decisions on the table itself: a gold of the board to
take (then a card to reserve, by the cards' own moves), a privilege spent on a token of the board,
the bag to replenish it, a bonus colour of their panel for the joker, a token of the board
matching the card just bought, a token of the opponent's panel to take, a royal tile, and the
tokens of their panel to put back above ten. Each thing carries the JSON its button posts (tokens
put back are matched to their button by the script), and the script presses the button. A gold
the player may not take while choosing their move says why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.duel.words import space_name

CHOSEN_BY = {
    "take_gold": "space",
    "use_privilege": "space",
    "take_matching_token": "space",
    "replenish": "type",
    "choose_joker_colour": "colour",
    "steal_token": "colour",
    "choose_royal": "royal",
}
"""Each decision made by one click, by the field of its action that names the thing clicked."""
TABLE_HINTS = {
    "reserve": "Click a card of the pyramid, or a deck's Reserve unseen, to reserve it.",
    "choose_joker_colour": "Click one of your bonus colours in your panel.",
    "take_matching_token": "Click a token of the card's colour on the board.",
    "steal_token": "Click a token in your opponent's panel.",
    "choose_royal": "Click the royal you choose.",
    "discard_tokens": "Click tokens in your panel, then put them back.",
}
"""What to click for each decision of its own (a card to reserve with the gold just taken, a
phase after a purchase, or tokens above ten)."""
MOST_RESERVED = 3
"""A player holds at most three reserved cards (rulebook, "Take 1 Gold token and reserve 1
Jewel card")."""


class TableChoices:
    """The decisions among one viewer's legal ``actions`` that a click on the table makes."""

    def __init__(self, actions: Sequence[Mapping[str, Any]], tokens_to_discard: int) -> None:
        # By kind, then by the thing clicked: a space's name, a colour, a royal's id, or
        # "replenish" for the bag; each the action's JSON, written as its button writes it.
        self.by_kind: dict[str, dict[Any, str]] = {kind: {} for kind in CHOSEN_BY}
        puts_back = False
        for action in actions:
            field = CHOSEN_BY.get(action["type"])
            if field:
                thing = space_name(action[field]) if field == "space" else action[field]
                self.by_kind[action["type"]][thing] = json.dumps(action, separators=(",", ":"))
            puts_back = puts_back or action["type"] == "discard_tokens"
        self.to_discard = tokens_to_discard if puts_back else 0
        """How many tokens this viewer puts back now (0 unless it is their decision)."""

    def on_space(self, name: str) -> dict[str, str | None]:
        """A board space's token: a gold taken to reserve, spent a privilege on, or taken as the
        card's matching token."""
        return {
            "gold": self.by_kind["take_gold"].get(name),
            "privilege": self.by_kind["use_privilege"].get(name),
            "choice": self.by_kind["take_matching_token"].get(name),
        }

    def why_no_gold(self, state: Mapping[str, Any], me: Mapping[str, Any] | None) -> str:
        """Why the viewer may not take a gold, in words for the board's gold tokens; empty when
        they may, or when they are not choosing their turn's move (``me`` None). The reasons
        restate the rules the engine applied to the legal actions, read only for what it left
        out."""
        if me is None or state["phase"] not in ("main", "mandatory") or self.by_kind["take_gold"]:
            return ""
        if len(me["reserved"]) >= MOST_RESERVED:
            return "three reserved already"
        cards_left = any(state["decks"]) or any(item for row in state["pyramid"] for item in row)
        return "" if cards_left else "no card left to reserve"

    def on_board(self) -> dict[str, Any]:
        return {
            "replenish": self.by_kind["replenish"].get("replenish"),
            "spends_privilege": bool(self.by_kind["use_privilege"]),
        }

    def on_colour(self, colour: str, held: int, *, is_viewer: bool) -> dict[str, Any]:
        """A panel's colour: the viewer's bonus joined by the joker, or their token put back;
        the opponent's token taken."""
        return {
            "joker": self.by_kind["choose_joker_colour"].get(colour) if is_viewer else None,
            "puts_back": is_viewer and self.to_discard > 0 and held > 0,
            "steal": None if is_viewer else self.by_kind["steal_token"].get(colour),
        }

    def on_royal(self, royal: int) -> str | None:
        return self.by_kind["choose_royal"].get(royal)
