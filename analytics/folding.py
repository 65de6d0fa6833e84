"""Every finished game's facts, read from the event log as a stream: for the rebuild.

Folding games through the engine is what a rebuild spends its time on, so with ``processes``
above 1 the games are folded by a pool of fresh processes (spawned, so none inherits the
rebuild's open transaction), each reading the events of a chunk of games itself. Results come
back in game order, a few chunks at a time, so memory stays flat either way. The pool reads
only committed rows: use it from ``manage.py``, not inside a test's transaction.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from itertools import groupby, islice

from django.db import connection

from analytics.extract import game_fact
from analytics.facts import GameFact
from games.models import Game, GameEvent

EVENT_FIELDS = ("game_id", "kind", "payload", "seat", "created_at", "schema_version")
CHUNK_GAMES = 100


def finished_game_facts(processes: int = 1) -> Iterator[GameFact]:
    if processes <= 1:
        rows = (
            GameEvent.objects.filter(game__status=Game.Status.FINISHED)
            .order_by("game_id", "seq")
            .values_list(*EVENT_FIELDS)
            .iterator(chunk_size=5000)
        )
        yield from _facts(rows)
        return
    game_ids = (
        Game.objects.filter(status=Game.Status.FINISHED)
        .order_by("pk")
        .values_list("pk", flat=True)
        .iterator(chunk_size=5000)
    )
    context = multiprocessing.get_context("spawn")
    database = connection.settings_dict["NAME"]
    with context.Pool(processes, initializer=_start_worker, initargs=(database,)) as pool:
        for facts in pool.imap(_facts_of_games, _chunks(game_ids, CHUNK_GAMES)):
            yield from facts


def _chunks(items: Iterator[int], size: int) -> Iterator[tuple[int, ...]]:
    while chunk := tuple(islice(items, size)):
        yield chunk


def _facts(rows: Iterator[tuple[object, ...]]) -> Iterator[GameFact]:
    for game_id, game_rows in groupby(rows, key=lambda row: row[0]):
        fact = game_fact(game_id, (row[1:] for row in game_rows))  # type: ignore[arg-type, misc]
        if fact is not None:
            yield fact


def _start_worker(database: str) -> None:
    """Set Django up in a pool process, on the database the rebuild reads (a test's own)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = database


def _facts_of_games(game_ids: tuple[int, ...]) -> list[GameFact]:
    rows = (
        GameEvent.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seq")
        .values_list(*EVENT_FIELDS)
    )
    return list(_facts(iter(rows)))
