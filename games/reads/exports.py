"""Reads that export games: one game as a document or a text log, and the bulk open database.

A running game is exported to staff only, and then without what players cannot see (the
setup: seed and deck order); everyone else gets a 409 ``game_not_over``. A game the viewer may
not see is the same 404 as a missing game.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from datetime import datetime
from itertools import groupby
from typing import Any

from django.db import connection

from games.errors import GameNotFound, GameNotOver
from games.models import Game, GameEvent, Seat
from games.notation import document as notation
from games.reads.access import Viewer, can_view
from games.reads.game_view import game_events_for_viewer
from games.reads.loading import game_get
from games.reads.timeline import game_timeline_for_viewer
from games.vocabulary import EventKind, Status

BULK_CHUNK = 500
"""Games read per round trip by the bulk export: memory stays flat whatever the total."""
MOVE_KINDS = (EventKind.GAME_STARTED, EventKind.ACTION_TAKEN, EventKind.PLAYER_RESIGNED)


def exportable_game(game_id: int, viewer: Viewer) -> Game:
    """The game, if ``viewer`` may export it: over, or running and ``viewer`` is staff.

    The one rule of every export (the whole log, the notation, the text; API and pages alike).
    A game the viewer may not see is missing, in the same words as a game id never used. One
    they see that still runs is refused with ``GameNotOver`` (409: the game exists, its file
    does not yet, and its setup would reveal the coming cards), whose message says when.
    """
    game = game_get(game_id)
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game_id}.")
    is_staff = viewer is not None and getattr(viewer, "is_staff", False)
    if game.is_running and not is_staff:
        raise GameNotOver(f"Game {game_id} can be exported once it is over.")
    return game


def game_document_for_viewer(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The game in our notation; the events are redacted while it runs (no setup)."""
    events = game_events_for_viewer(game, viewer)
    seats = Seat.objects.filter(game=game).order_by("index").values("display_name", "bot_level")
    return notation.export_document(game=_game_fields(game), seats=list(seats), events=events)


def game_text_for_viewer(game: Game, viewer: Viewer) -> str:
    """The readable log: every step's words, noble visits included, as the History shows."""
    timeline = game_timeline_for_viewer(game, viewer)
    document = game_document_for_viewer(game, viewer)
    lines = [event["text"] for event in timeline.events[timeline.first_step :]]
    return notation.text_log(document, lines)


def _game_fields(game: Game) -> dict[str, Any]:
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "origin": game.origin,
        "result": game.result,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


# The open database: every finished public game, gzipped JSON Lines ----------------------------


def bulk_export_games(*, finished_since: datetime | None = None) -> Iterator[bytes]:
    """Every finished public game as one JSON document per line, gzipped, in pieces.

    Reads ``BULK_CHUNK`` games at a time by increasing id (keyset, not OFFSET), so memory does
    not grow with the number of games and a game finished meanwhile is either in or out. On
    PostgreSQL the database writes each line itself (the same document as
    ``game_document_for_viewer``): decoding and re-encoding every event in Python would cap
    the export at a few hundred games a second. ``finished_since`` keeps the games finished
    at or after that moment (for a download that tops up an earlier one).
    """
    # Level 1: a third of level 6's time for a file a fifth larger; wbits 31: a gzip stream.
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
    chunks = _lines_in_sql if connection.vendor == "postgresql" else _lines_in_python
    last_id = 0
    while True:
        ids, lines = chunks(last_id, finished_since)
        if not ids:
            break
        last_id = ids[-1]
        piece = compressor.compress("".join(lines).encode())
        if piece:
            yield piece
    yield compressor.flush()


def _lines_in_python(after_id: int, since: datetime | None) -> tuple[list[int], list[str]]:
    games = Game.objects.filter(status=Status.FINISHED, is_public=True, pk__gt=after_id)
    if since is not None:
        games = games.filter(finished_at__gte=since)
    games = list(
        games.order_by("pk").values("id", "variant", "status", "origin", "result", "finished_at")[
            :BULK_CHUNK
        ]
    )
    return [game["id"] for game in games], _documents(games)


# Each line is put together from the JSON text PostgreSQL prints for every value (jsonb
# payloads, to_json of the columns), in one grouped pass over the chunk's events: building a
# json value per event and aggregating it was three times slower, and fetching the events to
# join them in Python slower still. Printing only the action (``->> 'action'``) rather than
# the whole payload, and reading the chunk's events by their ids rather than through a join,
# took a fifth off (the jsonb-to-text conversion of every event is most of what is left).
# A test checks each line parses to exactly the document that ``game_document_for_viewer``
# gives.
_DOCUMENTS_SQL = """
WITH chosen AS (
    SELECT id, variant, status, origin, result, finished_at FROM games_game
    WHERE status = 'finished' AND is_public AND id > %(after)s
        AND (%(since)s::timestamptz IS NULL OR finished_at >= %(since)s::timestamptz)
    ORDER BY id LIMIT %(limit)s
), moves AS (
    SELECT e.game_id, string_agg(
        CASE WHEN e.kind = 'ActionTaken'
            THEN '{"seat":' || e.seat || ',"action":' || (e.payload ->> 'action') || '}'
            ELSE '{"seat":' || (e.payload ->> 'seat') || ',"resign":true}' END,
        ',' ORDER BY e.seq) AS moves
    FROM games_gameevent e
    -- the chosen ids, so that the index on game_id is used (a join with the CTE merged all)
    WHERE e.game_id = ANY(ARRAY(SELECT id FROM chosen))
        AND e.kind IN ('ActionTaken', 'PlayerResigned')
    GROUP BY e.game_id
), seats AS (
    SELECT s.game_id, json_agg(json_build_object(
        'name', s.display_name, 'bot_level', NULLIF(s.bot_level, '')) ORDER BY s.index) AS seats
    FROM games_seat s
    WHERE s.game_id = ANY(ARRAY(SELECT id FROM chosen))
    GROUP BY s.game_id
)
SELECT chosen.id,
    '{"format":' || to_json(%(format)s::text)::text
    || ',"variant":' || to_json(chosen.variant)::text
    || ',"game":' || chosen.id
    || ',"status":' || to_json(chosen.status)::text
    || ',"origin":' || COALESCE(chosen.origin::text, 'null')
    || ',"seats":' || COALESCE(seats.seats::text, '[]')
    || ',"setup":' || COALESCE(started.payload ->> 'setup', 'null')
    || ',"salt":' || COALESCE((started.payload -> 'salt')::text, 'null')
    || ',"commitment":' || COALESCE((started.payload -> 'commitment')::text, 'null')
    || ',"moves":[' || COALESCE(moves.moves, '') || ']'
    || ',"result":' || COALESCE(chosen.result::text, 'null')
    || ',"started_at":' || COALESCE('"' || to_char(started.created_at AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') || '"', 'null')
    || ',"finished_at":' || COALESCE('"' || to_char(chosen.finished_at AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') || '"', 'null')
    || '}'
FROM chosen
LEFT JOIN moves ON moves.game_id = chosen.id
LEFT JOIN seats ON seats.game_id = chosen.id
LEFT JOIN LATERAL (
    SELECT payload, created_at FROM games_gameevent
    WHERE game_id = chosen.id AND kind = 'GameStarted' LIMIT 1
) started ON true
ORDER BY chosen.id
"""


def _lines_in_sql(after_id: int, since: datetime | None) -> tuple[list[int], list[str]]:
    parameters = {"format": notation.FORMAT, "after": after_id, "limit": BULK_CHUNK, "since": since}
    with connection.cursor() as cursor:
        cursor.execute(_DOCUMENTS_SQL, parameters)
        rows = cursor.fetchall()
    return [row[0] for row in rows], [row[1] + "\n" for row in rows]


def _documents(games: list[dict[str, Any]]) -> list[str]:
    ids = [game["id"] for game in games]
    seats = (
        Seat.objects.filter(game_id__in=ids)
        .order_by("game_id", "index")
        .values_list("game_id", "display_name", "bot_level")
    )
    seats_of = {
        game_id: [{"display_name": name, "bot_level": level} for _, name, level in rows]
        for game_id, rows in groupby(seats, key=lambda row: row[0])
    }
    events = (
        GameEvent.objects.filter(game_id__in=ids, kind__in=MOVE_KINDS)
        .order_by("game_id", "seq")
        .values_list("game_id", "kind", "seat", "payload", "created_at")
    )
    events_of = {
        game_id: [
            {
                "kind": kind,
                "seat": seat,
                "payload": payload,
                "created_at": created_at.isoformat(),
            }
            for _, kind, seat, payload, created_at in rows
        ]
        for game_id, rows in groupby(events.iterator(chunk_size=5000), key=lambda row: row[0])
    }
    lines = []
    for game in games:
        fields = {
            **game,
            "finished_at": game["finished_at"].isoformat() if game["finished_at"] else None,
        }
        document = notation.export_document(
            game=fields, seats=seats_of.get(game["id"], []), events=events_of.get(game["id"], [])
        )
        lines.append(json.dumps(document, separators=(",", ":")) + "\n")
    return lines
