"""Splendor Duel in words: its actions as a player reads them, and its board's space names.

Spaces are named as the page labels the board: columns A to E from the left, rows 1 to 5 from
the top ("C3" is the centre). Cards named here were face up when the action was taken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import engine
from games.variants.words import gems_in_words

COLUMNS = "ABCDE"


def space_name(space: Sequence[int]) -> str:
    row, column = space
    return f"{COLUMNS[column]}{row + 1}"


def describe_card(card_id: int) -> str:
    card = engine.card_json(card_id, "duel")
    colour = card["colour"] or "colourless"
    worth = f" worth {card['points']} point{'s' if card['points'] != 1 else ''}"
    return f"a level {card['level']} {colour} card{worth if card['points'] else ''}"


def describe_action(action: Mapping[str, Any]) -> str:
    """A Duel action in words, without its subject: "took the tokens on A1, B2 and C3"."""
    kind = action["type"]
    if kind == "take_tokens":
        spaces = [space_name(space) for space in action["spaces"]]
        noun = "token" if len(spaces) == 1 else "tokens"
        return f"took the {noun} on {_and(spaces)}"
    if kind == "use_privilege":
        return f"spent a privilege on the token on {space_name(action['space'])}"
    if kind == "replenish":
        return "refilled the board from the bag (the opponent takes a privilege)"
    if kind == "take_gold":
        return f"took the gold on {space_name(action['space'])}"
    if kind == "reserve_card":
        return f"reserved {describe_card(action['card'])}"
    if kind == "reserve_from_deck":
        return f"reserved a card from the level {action['level']} deck, unseen"
    if kind == "buy_card":
        paid = action.get("payment")
        extra = f", paying {gems_in_words(paid)}" if paid else ""
        return f"bought {describe_card(action['card'])}{extra}"
    if kind == "choose_joker_colour":
        return f"placed the joker card with their {action['colour']} cards"
    if kind == "take_matching_token":
        return f"took the matching token on {space_name(action['space'])}"
    if kind == "steal_token":
        return f"took a {action['colour']} token from their opponent"
    if kind == "choose_royal":
        return f"welcomed royal card {action['royal'] + 1}"
    if kind == "discard_tokens":
        return f"put {gems_in_words(action['tokens'])} back in the bag"
    if kind == "pass":
        return "passed (no move was possible)"
    return str(kind)


def _and(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
