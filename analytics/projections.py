"""The only writer of analytics: counting one finished game, and rebuilding everything.

Each projection ("facts": per-game facts and the tallies; "ratings") claims a game by inserting
its ``CountedGame`` row in the same transaction as its writes. A second delivery finds the row
and adds nothing; a crash rolls the row back with the writes; two workers racing on one game
meet on the unique constraint, and the loser adds nothing. A rebuild empties the tables in
its transaction, so a game counted meanwhile waits for it and then finds its own row or none.
"""

from __future__ import annotations

import logging
import secrets

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from analytics import rating_writes, tallies
from analytics.bulk import insert_rows
from analytics.event_log import events_of_games
from analytics.facts import GameFact
from analytics.folding import facts_in, finished_game_chunks
from analytics.models import (
    CountedGame,
    GameFacts,
    Rating,
    RatingChange,
    SeatFacts,
    StatsVersion,
    Tally,
)
from analytics.rows import FACT_FIELDS, SEAT_FIELDS, fact_row, seat_rows
from analytics.variants import known_variants
from games.models import Game
from games.vocabulary import Status

logger = logging.getLogger(__name__)

FACTS, RATINGS = "facts", "ratings"
PROJECTIONS = (FACTS, RATINGS)
_COUNTED_FIELDS = ("game_id", "projection", "counted_at")


def count_game(game_id: int) -> str:
    """Count a finished game in every projection that has not counted it yet.

    Returns "counted", "already counted" or "not finished" (running or aborted games count
    nothing, now or later: an aborted game never finishes).
    """
    variant = Game.objects.filter(pk=game_id).values_list("variant", flat=True).first()
    if variant not in known_variants():
        return f"not counted: no analytics for {variant}"
    fact = next(facts_in(events_of_games([game_id])), None)
    if fact is None:
        return "not finished"
    with transaction.atomic():
        claimed = _claim(game_id)
        if FACTS in claimed:
            _save_facts(fact)
            tallies.add_tallies(tallies.keyed(fact))
        if RATINGS in claimed and fact.is_rated:
            rating_writes.rate_game(fact)
        if claimed:
            new_version()
    return "counted" if claimed else "already counted"


def uncounted_finished_games(limit: int) -> list[int]:
    """Finished games some projection has not counted: what the catch-up queues."""
    counted_everywhere = (
        CountedGame.objects.values("game_id")
        .annotate(projections=Count("id"))
        .filter(projections=len(PROJECTIONS))
        .values("game_id")
    )
    return list(
        Game.objects.filter(status=Status.FINISHED, variant__in=known_variants())
        .exclude(pk__in=counted_everywhere)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def rebuild(*, processes: int = 1) -> int:
    """Drop every projection and count every finished game again, streaming; returns the count.

    Memory stays flat: events are read through a cursor and written a chunk of games at a time;
    only the tallies (bounded by buckets, not games) and the current ratings are kept whole.
    With ``processes`` above 1 the games are folded in parallel (``analytics.folding``).
    """
    with transaction.atomic():
        _empty_tables()
        counted = 0
        totals = tallies.Totals()
        for chunk in finished_game_chunks(processes):
            insert_rows(GameFacts, FACT_FIELDS, chunk.fact_rows)
            insert_rows(SeatFacts, SEAT_FIELDS, chunk.seat_rows)
            now = timezone.now()
            insert_rows(CountedGame, _COUNTED_FIELDS, [(g, FACTS, now) for g in chunk.game_ids])
            totals.merge(chunk.totals)
            counted += len(chunk.game_ids)
        totals.write()
        for games in rating_writes.rate_every_game():
            now = timezone.now()
            insert_rows(CountedGame, _COUNTED_FIELDS, [(game, RATINGS, now) for game in games])
        new_version()
    return counted


def new_version() -> None:
    """Mark the numbers changed, last in the transaction that changes them (the row stays
    locked until the commit: counts queue on it only for their last statement)."""
    StatsVersion.objects.bulk_create(
        [StatsVersion(pk=1, token=secrets.token_hex(16))],
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=["token"],
    )


def _claim(game_id: int) -> set[str]:
    """The projections that had not counted the game yet, now marked as counting it.

    One statement: a row already there (a second delivery) or inserted meanwhile by another
    transaction (which this one waits for) is skipped, and only new rows come back.
    """
    now = timezone.now()
    values = ", ".join(["(%s, %s, %s)"] * len(PROJECTIONS))
    params = [value for name in PROJECTIONS for value in (game_id, name, now)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {CountedGame._meta.db_table} (game_id, projection, counted_at) "
            f"VALUES {values} ON CONFLICT (game_id, projection) DO NOTHING "
            "RETURNING projection",
            params,
        )
        return {row[0] for row in cursor.fetchall()}


def _save_facts(fact: GameFact) -> None:
    """One game's facts through the ORM: for counting one game."""
    GameFacts.objects.create(**dict(zip(FACT_FIELDS, fact_row(fact, _same), strict=True)))
    SeatFacts.objects.bulk_create(
        SeatFacts(**dict(zip(SEAT_FIELDS, row, strict=True))) for row in seat_rows(fact, _same)
    )


def _same(value: object) -> object:
    return value


def _empty_tables() -> None:
    """Empty every analytics table, holding off concurrent counts until the rebuild commits.

    EXCLUSIVE blocks writers (a task counting a game waits, then finds its row or none) but not
    readers (pages show the old numbers meanwhile). DELETE, not TRUNCATE: the site's database
    role may not truncate.
    """
    tables = [
        model._meta.db_table
        for model in (RatingChange, Rating, SeatFacts, GameFacts, Tally, CountedGame)
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {', '.join(tables)} IN EXCLUSIVE MODE")
        for table in tables:
            cursor.execute(f"DELETE FROM {table}")
    logger.info("analytics tables emptied for a rebuild")


def vacuum_tables() -> None:
    """After a rebuild has committed: reclaim the rows it deleted, and refresh the planner's
    statistics, so the next counts do not wade through dead rows. PostgreSQL only; outside any
    transaction (VACUUM cannot run in one)."""
    if connection.vendor != "postgresql":
        return
    tables = [
        model._meta.db_table
        for model in (RatingChange, Rating, SeatFacts, GameFacts, Tally, CountedGame)
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {', '.join(tables)}")
