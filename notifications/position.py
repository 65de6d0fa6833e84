"""The position in a mail, per variant: what one player may see, in words.

Built only from the engine's ``view`` for that player (as every page is), so a mail can show no
card the player could not see on the game page. Each variant registers its own builder and its
own templates (``notifications/mail/position/<variant>.txt|html``); a variant without one gets a
mail without the position, and its link.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.describe import gems_in_words

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
    return {"supply": gems_in_words(view["supply"]), "rows": rows, "nobles": nobles,
            "players": players}  # fmt: skip


POSITION_BUILDERS: dict[str, PositionBuilder] = {"splendor": splendor_position}


def position_for(
    variant: str, view: Mapping[str, Any] | None, names: Sequence[str], viewer_seat: int | None
) -> dict[str, Any] | None:
    builder = POSITION_BUILDERS.get(variant)
    if builder is None or view is None:
        return None
    return {"variant": variant, **builder(view, names, viewer_seat)}
