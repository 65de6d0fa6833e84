"""The base game's position in a turn mail: what one player may see, in words.

Built only from the engine's ``view`` for that player (as every page is), so a mail can show no
card the player could not see on the game page. Its templates are
``notifications/mail/position/splendor.txt|html``; ``notifications.position`` finds this
builder through the game's ``Game`` (``mail_position``, ``card_words``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.words import gems_in_words


def card_words(card: Mapping[str, Any]) -> dict[str, Any]:
    """A face-up card as the mail spells it (the leak tests look for hidden cards' words)."""
    points = card["points"]
    worth = f", {points} point{'s' if points != 1 else ''}" if points else ""
    return {
        "id": card["id"],
        "text": f"level {card['level']} {card['colour']}{worth}, "
        f"costs {gems_in_words(card['cost'])}",
    }


def _reserved(card: Mapping[str, Any]) -> dict[str, Any]:
    if card.get("hidden"):
        return {"id": None, "text": f"a level {card['level']} card reserved unseen"}
    shown = card_words(card)
    if card.get("blind"):
        shown["text"] += " (you reserved it unseen)"
    return shown


def position(
    view: Mapping[str, Any], names: Sequence[str], viewer_seat: int | None
) -> dict[str, Any]:
    rows = sorted(
        (
            {
                "level": level,
                "deck": view["decks"][level - 1],
                "cards": [card_words(card) for card in row if card is not None],
            }
            for level, row in enumerate(view["board"], start=1)
        ),
        key=lambda row: -row["level"],
    )
    players = [
        {
            "name": names[player["seat"]],
            "is_you": player["seat"] == viewer_seat,
            "points": player["points"],
            "tokens": gems_in_words(player["tokens"]),
            "bonuses": gems_in_words(player["bonuses"]),
            "reserved": [_reserved(card) for card in player["reserved"]],
            "nobles": len(player["nobles"]),
        }
        for player in view["players"]
    ]
    nobles = [
        {
            "id": noble["id"],
            "text": f"{noble['points']} points for {gems_in_words(noble['requires'])}",
        }
        for noble in view["nobles"]
    ]
    return {
        "supply": gems_in_words(view["supply"]),
        "rows": rows,
        "nobles": nobles,
        "players": players,
    }
