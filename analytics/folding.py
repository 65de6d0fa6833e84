"""Every finished game's facts, read from the event log as a stream: for the rebuild.

Folding games through the engine is what a rebuild spends its time on, so with ``processes``
above 1 the games are folded by a pool of fresh processes (spawned, so none inherits the
rebuild's open transaction), each reading the events of a chunk of games itself. Results come
back in game order, a few chunks at a time, so memory stays flat either way. The pool reads
only committed rows: use it from ``manage.py``, not inside a test's transaction.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import groupby, islice

from django.db import connection

from analytics import fold_worker
from analytics.extract import game_fact
from analytics.facts import GameFact
from analytics.variants import known_variants
from games.models import Game, GameEvent

EVENT_FIELDS = ("game_id", "kind", "payload", "seat", "created_at", "schema_version")
CHUNK_GAMES = 100


def finished_game_facts(processes: int = 1) -> Iterator[GameFact]:
    if processes <= 1:
        rows = (
            GameEvent.objects.filter(
                game__status=Game.Status.FINISHED, game__variant__in=known_variants()
            )
            .order_by("game_id", "seq")
            .values_list(*EVENT_FIELDS)
            .iterator(chunk_size=5000)
        )
        yield from facts_in(rows)
        return
    game_ids = (
        Game.objects.filter(status=Game.Status.FINISHED, variant__in=known_variants())
        .order_by("pk")
        .values_list("pk", flat=True)
        .iterator(chunk_size=5000)
    )
    database = connection.settings_dict["NAME"]
    # An executor, not a Pool: a process that dies breaks it loudly instead of hanging the
    # rebuild. At most two chunks per process are in flight, so memory stays flat.
    with ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=fold_worker.start,
        initargs=(database,),
    ) as pool:
        pending: deque[Future[list[GameFact]]] = deque()
        for chunk in _chunks(game_ids, CHUNK_GAMES):
            pending.append(pool.submit(fold_worker.facts_of_games, chunk))
            if len(pending) >= 2 * processes:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def _chunks(items: Iterator[int], size: int) -> Iterator[tuple[int, ...]]:
    while chunk := tuple(islice(items, size)):
        yield chunk


def facts_in(rows: Iterator[tuple[object, ...]]) -> Iterator[GameFact]:
    for game_id, game_rows in groupby(rows, key=lambda row: row[0]):
        fact = game_fact(game_id, (row[1:] for row in game_rows))  # type: ignore[arg-type, misc]
        if fact is not None:
            yield fact


def events_of_games(game_ids: tuple[int, ...]) -> Iterator[tuple[object, ...]]:
    rows = (
        GameEvent.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seq")
        .values_list(*EVENT_FIELDS)
    )
    return iter(rows)
