"""The position in a mail, per variant: what one player may see, in words.

Built only from the engine's ``view`` for that player (as every page is), so a mail can show no
card the player could not see on the game page. Each variant registers its own builder, its
words for a card and its own templates (``notifications/mail/position/<variant>.txt|html``);
the start-up check (``games.variants.completeness``) refuses a game without them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.variants.duel.words import space_name
from games.variants.splendor.describe import gems_in_words

PositionBuilder = Callable[[Mapping[str, Any], Sequence[str], int | None], dict[str, Any]]


def _card(card: Mapping[str, Any]) -> dict[str, Any]:
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
    shown = _card(card)
    if card.get("blind"):
        shown["text"] += " (you reserved it unseen)"
    return shown


def splendor_position(
    view: Mapping[str, Any], names: Sequence[str], viewer_seat: int | None
) -> dict[str, Any]:
    rows = sorted(
        (
            {
                "level": level,
                "deck": view["decks"][level - 1],
                "cards": [_card(card) for card in row if card is not None],
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


# Splendor Duel ------------------------------------------------------------------------------


def _duel_card(card: Mapping[str, Any]) -> dict[str, Any]:
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


def _duel_reserved(card: Mapping[str, Any]) -> dict[str, Any]:
    if card.get("hidden"):
        return {"id": None, "text": f"a level {card['level']} card reserved unseen"}
    shown = _duel_card(card)
    if card.get("blind"):
        shown["text"] += " (you reserved it unseen)"
    return shown


def _royal(royal: Mapping[str, Any]) -> str:
    ability = royal["ability"].replace("_", " ")
    points = f"{royal['points']} point{'s' if royal['points'] != 1 else ''}"
    return points if ability == "none" else f"{points}, {ability}"


def duel_position(
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
            "cards": [_duel_card(card) for card in view["pyramid"][level - 1] if card],
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
            "reserved": [_duel_reserved(card) for card in player["reserved"]],
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


POSITION_BUILDERS: dict[str, PositionBuilder] = {
    "splendor": splendor_position,
    "duel": duel_position,
}
CARD_WORDS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "splendor": _card,
    "duel": _duel_card,
}
"""A face-up card as each game's mail spells it (the leak tests look for hidden cards' words)."""


def position_for(
    variant: str, view: Mapping[str, Any] | None, names: Sequence[str], viewer_seat: int | None
) -> dict[str, Any] | None:
    builder = POSITION_BUILDERS.get(variant)
    if builder is None or view is None:
        return None
    return {"variant": variant, **builder(view, names, viewer_seat)}
