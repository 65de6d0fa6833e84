"""The base game's words: its actions, cards and nobles as a player reads them, and its gems.

The one catalogue lookup, for describing cards and nobles named in past events, only ever
describes cards that were face up or bought when the event happened. The words every game
shares (events, results, gem marks) are ``games.variants.words``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import engine
from games.variants.splendor.forms import TOKEN_COLOURS
from games.variants.words import GEM_NAMES, LETTERS, gems_in_words, in_a_list


def gems(
    counts: Mapping[str, int], colours: Sequence[str] = TOKEN_COLOURS, *, zeros: bool = False
) -> list[dict[str, Any]]:
    """Token or gem counts as the ``gem`` partial shows them, in the game's colour order."""
    return [
        {
            "colour": colour,
            "letter": LETTERS[colour],
            "name": GEM_NAMES[colour],
            "count": counts.get(colour, 0),
        }
        for colour in colours
        if zeros or counts.get(colour, 0)
    ]


def describe_action(action: Mapping[str, Any]) -> str:
    """A base-game action in words, without its subject: "took white, blue and red"."""
    kind = action["type"]
    if kind == "take_gems":
        taken = list(action["gems"])
        if len(taken) == 2 and taken[0] == taken[1]:
            return f"took two {taken[0]}"
        return "took " + in_a_list(taken)
    if kind == "reserve_card":
        return f"reserved {describe_card(action['card'])}"
    if kind == "reserve_from_deck":
        return f"reserved a card from the level {action['level']} deck, unseen"
    if kind == "buy_card":
        paid = action.get("payment")
        extra = f", paying {gems_in_words(paid)}" if paid else ""
        return f"bought {describe_card(action['card'])}{extra}"
    if kind == "return_tokens":
        return f"gave back {gems_in_words(action['tokens'])}"
    if kind == "choose_noble":
        return f"welcomed {describe_noble(action['noble'])}"
    if kind == "pass":
        return "passed (no move was possible)"
    return kind


def describe_card(card_id: int) -> str:
    """A card named in a past event (so seen by all): "a level 2 red card worth 2 points"."""
    card = engine.card_json(card_id, "splendor")
    worth = f" worth {card['points']} point{'s' if card['points'] != 1 else ''}"
    return f"a level {card['level']} {card['colour']} card{worth if card['points'] else ''}"


def describe_noble(noble_id: int) -> str:
    noble = engine.noble_json(noble_id)
    return f"the noble asking for {gems_in_words(noble['requires'])}"
