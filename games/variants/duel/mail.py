"""Splendor Duel's position in a turn mail: what one player may see, in words.

Built only from the engine's ``view`` for that player (as every page is), so a mail can show no
card the player could not see on the game page. Its templates are
``notifications/mail/position/duel.txt|html``; ``notifications.position`` finds this builder
through the game's ``Game`` (``mail_position``, ``card_words``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.duel.words import space_name
from games.variants.words import gems_in_words


def card_words(card: Mapping[str, Any]) -> dict[str, Any]:
    """A face-up card as the mail spells it (the leak tests look for hidden cards' words)."""
    colour = card["colour"] or "colourless"
    extras = [
        f"{count} {word}{'s' if count != 1 else ''}"
        for count, word in ((card["points"], "point"), (card["crowns"], "crown"))
        if count
    ]
    if card["bonus"] > 1:
        extras.append(f"{card['bonus']} bonuses")
    if card["ability"] != "none":
        extras.append(card["ability"].replace("_", " "))
    worth = "".join(f", {extra}" for extra in extras)
    return {
        "id": card["id"],
        "text": f"level {card['level']} {colour}{worth}, costs {gems_in_words(card['cost'])}",
    }


def _reserved(card: Mapping[str, Any]) -> dict[str, Any]:
    if card.get("hidden"):
        return {"id": None, "text": f"a level {card['level']} card reserved unseen"}
    shown = card_words(card)
    if card.get("blind"):
        shown["text"] += " (you reserved it unseen)"
    return shown


def _royal(royal: Mapping[str, Any]) -> str:
    ability = royal["ability"].replace("_", " ")
    points = f"{royal['points']} point{'s' if royal['points'] != 1 else ''}"
    return points if ability == "none" else f"{points}, {ability}"


def position(
    view: Mapping[str, Any], names: Sequence[str], viewer_seat: int | None
) -> dict[str, Any]:
    """The board's tokens by space (as the page names them), the pyramid, the royals, and each
    player's tokens, bonuses, crowns, privileges and reserved cards as ``view`` shows them."""
    board = [
        {
            "row": row + 1,
            "spaces": [
                {"name": space_name((row, column)), "token": colour or "empty"}
                for column, colour in enumerate(cells)
            ],
        }
        for row, cells in enumerate(view["board"])
    ]
    rows = [
        {
            "level": level,
            "deck": view["decks"][level - 1],
            "cards": [card_words(card) for card in view["pyramid"][level - 1] if card],
        }
        for level in (3, 2, 1)
    ]
    players = [
        {
            "name": names[player["seat"]],
            "is_you": player["seat"] == viewer_seat,
            "points": player["points"],
            "crowns": player["crowns"],
            "best_colour_points": max(player["colour_points"].values(), default=0),
            "privileges": player["privileges"],
            "tokens": gems_in_words(player["tokens"]),
            "bonuses": gems_in_words(player["bonuses"]),
            "reserved": [_reserved(card) for card in player["reserved"]],
            "royals": [_royal(royal) for royal in player["royals"]],
        }
        for player in view["players"]
    ]
    return {
        "board": board,
        "bag": sum(view["bag"].values()),
        "privileges": view["privileges"],
        "rows": rows,
        "royals": [_royal(royal) for royal in view["royals"]],
        "players": players,
    }
