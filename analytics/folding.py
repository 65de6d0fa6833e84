"""Every finished game folded, a chunk of games at a time: the rebuild's unit of work.

Folding games through the engine is what a rebuild spends its time on, so with ``processes``
above 1 the chunks are folded by a pool of fresh processes (spawned, so none inherits the
rebuild's open transaction), each reading the events of its chunk itself. A folded chunk holds
only plain values (rows ready for COPY, the tallies summed per bucket), so little travels back
and the rebuild's own process has little left to do per game. Chunks come back in game order,
a few at a time, so memory stays flat either way. The pool reads only committed rows: use it
from ``manage.py``, not inside a test's transaction.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import islice

from django.db import connection

from analytics import fold_worker
from analytics.bulk import json_text
from analytics.event_log import GameEvents, events_of_finished_games, events_of_games
from analytics.extract import game_fact
from analytics.facts import GameFact
from analytics.rows import Row, fact_row, seat_rows
from analytics.tallies import Totals
from analytics.variants import known_variants
from games.models import Game
from games.vocabulary import Status

CHUNK_GAMES = 250


@dataclass
class FoldedChunk:
    game_ids: list[int] = field(default_factory=list)
    fact_rows: list[Row] = field(default_factory=list)
    seat_rows: list[Row] = field(default_factory=list)
    totals: Totals = field(default_factory=Totals)


def finished_game_chunks(processes: int = 1) -> Iterator[FoldedChunk]:
    if processes <= 1:
        games = events_of_finished_games(known_variants())
        while chunk := list(islice(games, CHUNK_GAMES)):
            yield fold_chunk(chunk)
        return
    game_ids = (
        Game.objects.filter(status=Status.FINISHED, variant__in=known_variants())
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
        pending: deque[Future[FoldedChunk]] = deque()
        for ids in _chunks(game_ids, CHUNK_GAMES):
            pending.append(pool.submit(fold_worker.fold_games, ids))
            if len(pending) >= 2 * processes:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def fold_chunk(games: Iterable[GameEvents]) -> FoldedChunk:
    chunk = FoldedChunk()
    for fact in facts_in(games):
        chunk.game_ids.append(fact.game_id)
        chunk.fact_rows.append(fact_row(fact, json_text))
        chunk.seat_rows.extend(seat_rows(fact, json_text))
        chunk.totals.add(fact)
    return chunk


def fold_games(game_ids: tuple[int, ...]) -> FoldedChunk:
    return fold_chunk(events_of_games(game_ids))


def _chunks(items: Iterator[int], size: int) -> Iterator[tuple[int, ...]]:
    while chunk := tuple(islice(items, size)):
        yield chunk


def facts_in(games: Iterable[GameEvents]) -> Iterator[GameFact]:
    for game_id, events in games:
        fact = game_fact(game_id, events)
        if fact is not None:
            yield fact
