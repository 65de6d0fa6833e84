"""The rows of the lists of games on the home page, the lobby and an invite: who plays, whose
turn it is, who won, and the games waiting for the viewer first."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.dateparse import parse_datetime

from games.reads.results import ending_in_words


def lobby_rows(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Game summaries with the words a list shows: players, whose turn, who won and how."""
    for game in summaries:
        names = [seat["display_name"] or "open seat" for seat in game["seats"]]
        acting = game["acting_seat"]
        game["players"] = names
        game["open_seats"] = sum(seat["is_open"] for seat in game["seats"])
        game["acting_name"] = names[acting] if acting is not None else None
        game["result_text"] = ending_in_words(game["variant"], game["result"], names)
        seat = game["viewer_seat"]
        points = (game["result"] or {}).get("points") or []
        game["my_seat_number"] = seat + 1 if seat is not None else None
        game["my_score"] = points[seat] if seat is not None and points else None
        changed = game.get("updated_at")
        game["waiting_since"] = parse_datetime(changed) if changed else None
        game["deadline"] = _moment(game["turn_deadline"])
        game["last_move"] = _moment(game["last_move_at"])
    return summaries


def _moment(iso: str | None) -> datetime | None:
    return parse_datetime(iso) if iso else None


def waiting_for_me_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Games where it is the viewer's turn first, the longest wait on top; the rest after, in
    their order."""
    mine = sorted(
        (row for row in rows if row["is_my_turn"]),
        key=lambda row: row["waiting_since"] or datetime.max.replace(tzinfo=UTC),
    )
    return mine + [row for row in rows if not row["is_my_turn"]]
