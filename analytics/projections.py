"""The only writer of analytics: counting one finished game, and rebuilding everything.

Each projection ("facts": per-game facts and the tallies; "ratings") claims a game by inserting
its ``CountedGame`` row in the same transaction as its writes. A second delivery finds the row
and adds nothing; a crash rolls the row back with the writes; two workers racing on one game
meet on the unique constraint, and the loser adds nothing. A rebuild empties the tables in
its transaction, so a game counted meanwhile waits for it and then finds its own row or none.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from itertools import groupby

from django.db import IntegrityError, connection, transaction
from django.db.models import Count

from analytics import ratings, tallies
from analytics.extract import game_fact
from analytics.facts import GameFact
from analytics.folding import EVENT_FIELDS, finished_game_facts
from analytics.models import CountedGame, GameFacts, Rating, RatingChange, SeatFacts, Tally
from analytics.variants import known_variants
from games.models import Game, GameEvent

logger = logging.getLogger(__name__)

FACTS, RATINGS = "facts", "ratings"
PROJECTIONS = (FACTS, RATINGS)
REBUILD_BATCH_GAMES = 500


def count_game(game_id: int) -> str:
    """Count a finished game in every projection that has not counted it yet.

    Returns "counted", "already counted" or "not finished" (running or aborted games count
    nothing, now or later: an aborted game never finishes).
    """
    variant = Game.objects.filter(pk=game_id).values_list("variant", flat=True).first()
    if variant not in known_variants():
        # A game whose variant has no fold yet (Splendor Duel) is left out, not failed on.
        return f"not counted: no analytics for {variant}"
    rows = GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list(*EVENT_FIELDS)
    fact = game_fact(game_id, (row[1:] for row in rows.iterator()))
    if fact is None:
        return "not finished"
    with transaction.atomic():
        claimed = [name for name in PROJECTIONS if _claim(game_id, name)]
        if FACTS in claimed:
            _save_facts([fact])
            tallies.add_tallies(tallies.keyed(fact))
        if RATINGS in claimed and fact.is_rated:
            _rate_incrementally(fact)
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
        Game.objects.filter(status=Game.Status.FINISHED, variant__in=known_variants())
        .exclude(pk__in=counted_everywhere)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def rebuild(*, processes: int = 1) -> int:
    """Drop every projection and count every finished game again, streaming; returns the count.

    Memory stays flat: events are read through a cursor and written in batches of games; only
    the tallies (bounded by buckets, not games) and the current ratings are kept whole. With
    ``processes`` above 1 the games are folded in parallel (``analytics.folding``).
    """
    with transaction.atomic():
        _empty_tables()
        counted = 0
        totals: Counter[tallies.TallyKey] = Counter()
        batch: list[GameFact] = []
        for fact in finished_game_facts(processes):
            batch.append(fact)
            totals.update(tallies.keyed(fact))
            if len(batch) >= REBUILD_BATCH_GAMES:
                counted += _flush(batch)
        counted += _flush(batch)
        tallies.add_tallies(totals)
        _rate_everything()
    return counted


def _claim(game_id: int, projection: str) -> bool:
    try:
        with transaction.atomic():
            CountedGame.objects.create(game_id=game_id, projection=projection)
    except IntegrityError:
        return False
    return True


def _flush(batch: list[GameFact]) -> int:
    _save_facts(batch)
    CountedGame.objects.bulk_create(
        CountedGame(game_id=fact.game_id, projection=FACTS) for fact in batch
    )
    count = len(batch)
    batch.clear()
    return count


def _save_facts(facts: list[GameFact]) -> None:
    GameFacts.objects.bulk_create(
        GameFacts(
            game_id=fact.game_id,
            variant=fact.variant,
            player_count=fact.player_count,
            with_bots=fact.with_bots,
            finished_at=fact.finished_at,
            rounds=fact.rounds,
            ended_by=fact.ended_by,
            is_rated=fact.is_rated,
            facts=fact.variant_facts_json(),
        )
        for fact in facts
    )
    SeatFacts.objects.bulk_create(
        SeatFacts(
            game_id=fact.game_id,
            seat=seat.seat,
            user_id=seat.user_id,
            bot_level=seat.bot_level,
            display_name=seat.display_name,
            points=seat.points,
            won=seat.won,
            rank=seat.rank,
            cards=list(seat.cards),
            colours=seat.colours,
        )
        for fact in facts
        for seat in fact.seats
    )


def _seats_of(fact: GameFact) -> list[tuple[str, int]]:
    return [
        (ratings.participant_of(seat.user_id, seat.bot_level), seat.rank) for seat in fact.seats
    ]


def _rate_incrementally(fact: GameFact) -> None:
    seats = _seats_of(fact)
    participants = sorted({participant for participant, _rank in seats})
    # Locked in a fixed order: two games of the same player finishing together wait, not lose.
    stored = {
        rating.participant: rating
        for rating in Rating.objects.select_for_update()
        .filter(variant=fact.variant, participant__in=participants)
        .order_by("participant")
    }
    current = {
        participant: ratings.Skill(row.mu, row.sigma, row.games)
        for participant, row in stored.items()
    }
    changes = ratings.rate(current, seats)
    for participant, (_before, skill) in changes.items():
        row = stored.get(participant) or _new_rating(fact.variant, participant)
        row.mu, row.sigma, row.ordinal, row.games = (
            skill.mu,
            skill.sigma,
            skill.ordinal,
            skill.games,
        )
        row.save()
    RatingChange.objects.bulk_create(
        _changes(fact.game_id, fact.variant, fact.finished_at, changes)
    )


def _rate_everything() -> None:
    """Replay every counted game's result into ratings, in the order the games finished."""
    current: dict[tuple[str, str], ratings.Skill] = {}
    games = (
        GameFacts.objects.order_by("finished_at", "game_id")
        .values_list("game_id", "variant", "finished_at", "is_rated")
        .iterator(chunk_size=2000)
    )
    changes_batch: list[RatingChange] = []
    counted: list[CountedGame] = []
    seat_rows = (
        SeatFacts.objects.order_by("game__finished_at", "game_id", "seat")
        .values_list("game_id", "user_id", "bot_level", "rank")
        .iterator(chunk_size=5000)
    )
    seats_by_game = groupby(seat_rows, key=lambda row: row[0])
    for (game_id, variant, finished_at, is_rated), (seat_game, seat_group) in zip(
        games, seats_by_game, strict=True
    ):
        assert seat_game == game_id
        counted.append(CountedGame(game_id=game_id, projection=RATINGS))
        if is_rated:
            seats = [
                (ratings.participant_of(user, bot), rank) for _g, user, bot, rank in seat_group
            ]
            in_variant = {
                participant: skill
                for (known_variant, participant), skill in current.items()
                if known_variant == variant and participant in dict(seats)
            }
            changes = ratings.rate(in_variant, seats)
            for participant, (_before, skill) in changes.items():
                current[variant, participant] = skill
            changes_batch.extend(_changes(game_id, variant, finished_at, changes))
        if len(counted) >= REBUILD_BATCH_GAMES:
            RatingChange.objects.bulk_create(changes_batch)
            CountedGame.objects.bulk_create(counted)
            changes_batch.clear()
            counted.clear()
    RatingChange.objects.bulk_create(changes_batch)
    CountedGame.objects.bulk_create(counted)
    Rating.objects.bulk_create(
        _rating_row(variant, participant, skill)
        for (variant, participant), skill in sorted(current.items())
    )


def _changes(
    game_id: int,
    variant: str,
    finished_at: datetime,
    changes: dict[str, tuple[float, ratings.Skill]],
) -> Iterable[RatingChange]:
    for participant, (before, skill) in changes.items():
        yield RatingChange(
            game_id=game_id,
            variant=variant,
            participant=participant,
            user_id=_user_id_of(participant),
            ordinal_before=before,
            mu=skill.mu,
            sigma=skill.sigma,
            ordinal=skill.ordinal,
            finished_at=finished_at,
        )


def _new_rating(variant: str, participant: str) -> Rating:
    return _rating_row(variant, participant, ratings.INITIAL)


def _rating_row(variant: str, participant: str, skill: ratings.Skill) -> Rating:
    kind, _, name = participant.partition(":")
    return Rating(
        variant=variant,
        participant=participant,
        user_id=_user_id_of(participant),
        bot_level=name if kind == "bot" else "",
        mu=skill.mu,
        sigma=skill.sigma,
        ordinal=skill.ordinal,
        games=skill.games,
    )


def _user_id_of(participant: str) -> int | None:
    kind, _, name = participant.partition(":")
    return int(name) if kind == "user" else None


def _empty_tables() -> None:
    """Empty every analytics table, holding off concurrent counts until the rebuild commits.

    EXCLUSIVE blocks writers (a task counting a game waits, then finds its row or none) but not
    readers (pages show the old numbers meanwhile). DELETE, not TRUNCATE: the site's database
    role may not truncate.
    """
    tables = [model._meta.db_table for model in
              (RatingChange, Rating, SeatFacts, GameFacts, Tally, CountedGame)]  # fmt: skip
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {', '.join(tables)} IN EXCLUSIVE MODE")
        for table in tables:
            cursor.execute(f"DELETE FROM {table}")
    logger.info("analytics tables emptied for a rebuild")
