"""Writing ratings: after one counted game, and for every game again in a rebuild.

Only ``analytics.projections`` calls these, inside its transactions; ``analytics.ratings`` does
the arithmetic. Ratings are a function of the ordered log: within a variant, games are rated in
the order they finished, (finished_at, game id), however they are counted. A rebuild replays
them in that order; counting one game rates it after every game of its variant rated so far,
and when one of those finished after it (two workers, a retry, the catch-up), re-rates that
tail after it. Both paths rate a game with the same step, ``_rate_next``.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from typing import Any

from django.db import connection
from django.db.models import Count, OuterRef, Q, Subquery

from analytics import ratings
from analytics.bulk import insert_rows
from analytics.facts import GameFact
from analytics.models import Rating, RatingChange, SeatFacts

REBUILD_BATCH_GAMES = 500
_CHANGE_FIELDS = (
    "game_id",
    "variant",
    "participant",
    "user_id",
    "ordinal_before",
    "mu",
    "sigma",
    "ordinal",
    "finished_at",
)
_RATING_FIELDS = (
    "variant",
    "participant",
    "user_id",
    "bot_level",
    "mu",
    "sigma",
    "ordinal",
    "games",
)
_SEAT_FIELDS = (
    "game_id",
    "game__variant",
    "game__finished_at",
    "game__is_rated",
    "user_id",
    "bot_level",
    "rank",
)
# The first key of the advisory locks that serialize one variant's rating writes (the second is
# the variant's): "rati" in ASCII, a namespace of their own.
_LOCK_NAMESPACE = 0x72617469


@dataclass(frozen=True)
class RatedGame:
    """What rating a game reads: its place in the order and its (participant, rank) seats."""

    game_id: int
    variant: str
    finished_at: datetime
    seats: Sequence[tuple[str, int]]


def rate_game(fact: GameFact) -> None:
    """Rate one finished game in its place among the games of its variant rated so far.

    Writes of one variant queue on a lock, so each sees every game rated before it. When no
    game rated so far finished after this one (the usual case) it is rated from the current
    ratings; otherwise the games after it are rated again, after it, from the ratings their
    participants had just before it.
    """
    _lock_variant(fact.variant)
    game = RatedGame(
        fact.game_id,
        fact.variant,
        fact.finished_at,
        [(ratings.participant_of(seat.user_id, seat.bot_level), seat.rank) for seat in fact.seats],
    )
    later = RatingChange.objects.filter(variant=game.variant).filter(_after(game))
    if not later.exists():
        replayed = [game]
        participants = sorted({participant for participant, _rank in game.seats})
        skills = {
            row.participant: ratings.Skill(row.mu, row.sigma, row.games)
            for row in Rating.objects.filter(variant=game.variant, participant__in=participants)
        }
    else:
        tail = _games_of(
            SeatFacts.objects.filter(game_id__in=later.values("game_id"))
            .order_by("game__finished_at", "game_id", "seat")
            .values_list(*_SEAT_FIELDS)
        )
        replayed = [game, *tail]
        participants = sorted({p for rated in replayed for p, _rank in rated.seats})
        skills = _skills_before(game, participants)
        later.delete()
    changes = [row for rated in replayed for row in _rate_next(skills, rated)]
    RatingChange.objects.bulk_create(
        RatingChange(**dict(zip(_CHANGE_FIELDS, row, strict=True))) for row in changes
    )
    _save_ratings(game.variant, skills)


def rate_every_game() -> Iterator[list[int]]:
    """Rate every counted game from scratch (the tables are empty), in the order they finished;
    yields the ids of the games rated, a batch at a time, for the caller to mark them counted.

    The caller writes between batches, never while one is being made: a COPY must not be open
    on the connection while this reads the next seats."""
    skills: dict[str, dict[str, ratings.Skill]] = {}
    seat_rows = (
        SeatFacts.objects.order_by("game__finished_at", "game_id", "seat")
        .values_list(*_SEAT_FIELDS)
        .iterator(chunk_size=5000)
    )
    changes_batch: list[tuple[object, ...]] = []
    games: list[int] = []
    for game in _games_of(seat_rows, rated_only=False):
        if game.seats:
            changes_batch.extend(_rate_next(skills.setdefault(game.variant, {}), game))
        games.append(game.game_id)
        if len(games) >= REBUILD_BATCH_GAMES:
            insert_rows(RatingChange, _CHANGE_FIELDS, changes_batch)
            changes_batch.clear()
            yield games
            games = []
    insert_rows(RatingChange, _CHANGE_FIELDS, changes_batch)
    yield games
    insert_rows(
        Rating,
        _RATING_FIELDS,
        (
            _rating_row(variant, participant, skill)
            for variant, in_variant in sorted(skills.items())
            for participant, skill in sorted(in_variant.items())
        ),
    )


def _rate_next(skills: dict[str, ratings.Skill], game: RatedGame) -> Iterable[tuple[object, ...]]:
    """Rate ``game`` after the games ``skills`` (participant → skill, in its variant) come
    from, update ``skills`` and return the game's rating history rows."""
    changes = ratings.rate(skills, game.seats)
    for participant, (_before, skill) in changes.items():
        skills[participant] = skill
    return list(_change_rows(game.game_id, game.variant, game.finished_at, changes))


def _games_of(
    seat_rows: Iterable[tuple[Any, ...]], *, rated_only: bool = True
) -> Iterator[RatedGame]:
    """Games from their seats' rows (``_SEAT_FIELDS``, in order); an unrated game has no seats
    to rate."""
    for game_id, game_seats in groupby(seat_rows, key=lambda row: row[0]):
        rows = list(game_seats)
        _game, variant, finished_at, is_rated = rows[0][:4]
        if rated_only and not is_rated:
            continue
        seats = [(ratings.participant_of(row[4], row[5]), row[6]) for row in rows]
        yield RatedGame(game_id, variant, finished_at, seats if is_rated else [])


def _lock_variant(variant: str) -> None:
    """Queue this transaction's rating writes of ``variant`` behind any other's, until commit.

    SQLite has one writer at a time already."""
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(variant.encode()) - 2**31  # a stable int4
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_NAMESPACE, key])


def _after(game: RatedGame) -> Q:
    """Rows of games that come after ``game`` in the order of the log."""
    return Q(finished_at__gt=game.finished_at) | Q(
        finished_at=game.finished_at, game_id__gt=game.game_id
    )


def _before(game: RatedGame) -> Q:
    """Rows of games that come before ``game`` in the order of the log."""
    return Q(finished_at__lt=game.finished_at) | Q(
        finished_at=game.finished_at, game_id__lt=game.game_id
    )


def _skills_before(game: RatedGame, participants: list[str]) -> dict[str, ratings.Skill]:
    """Each participant's skill just before ``game``: their last rating change before it, and
    how many they had; a participant without one starts at ``ratings.INITIAL``."""
    earlier = RatingChange.objects.filter(
        _before(game), variant=game.variant, participant=OuterRef("participant")
    )
    last = earlier.order_by("-finished_at", "-game_id")
    counted = earlier.order_by().values("participant").annotate(n=Count("id")).values("n")
    rows = (
        Rating.objects.filter(variant=game.variant, participant__in=participants)
        .annotate(
            mu_before=Subquery(last.values("mu")[:1]),
            sigma_before=Subquery(last.values("sigma")[:1]),
            games_before=Subquery(counted),
        )
        .values_list("participant", "mu_before", "sigma_before", "games_before")
    )
    return {
        participant: ratings.Skill(mu, sigma, games)
        for participant, mu, sigma, games in rows
        if games
    }


def _save_ratings(variant: str, skills: dict[str, ratings.Skill]) -> None:
    """Write the participants' current ratings: update their rows, or create them."""
    updated = []
    for row in Rating.objects.filter(variant=variant, participant__in=sorted(skills)):
        skill = skills[row.participant]
        row.mu, row.sigma, row.ordinal, row.games = (
            skill.mu,
            skill.sigma,
            skill.ordinal,
            skill.games,
        )
        updated.append(row)
    if updated:
        Rating.objects.bulk_update(updated, ["mu", "sigma", "ordinal", "games"])
    stored = {row.participant for row in updated}
    Rating.objects.bulk_create(
        Rating(**dict(zip(_RATING_FIELDS, _rating_row(variant, participant, skill), strict=True)))
        for participant, skill in sorted(skills.items())
        if participant not in stored
    )


def _change_rows(
    game_id: int,
    variant: str,
    finished_at: datetime,
    changes: dict[str, tuple[float, ratings.Skill]],
) -> Iterable[tuple[object, ...]]:
    for participant, (before, skill) in changes.items():
        yield (
            game_id,
            variant,
            participant,
            _user_id_of(participant),
            before,
            skill.mu,
            skill.sigma,
            skill.ordinal,
            finished_at,
        )


def _rating_row(variant: str, participant: str, skill: ratings.Skill) -> tuple[object, ...]:
    kind, _, name = participant.partition(":")
    return (
        variant,
        participant,
        _user_id_of(participant),
        name if kind == "bot" else "",
        skill.mu,
        skill.sigma,
        skill.ordinal,
        skill.games,
    )


def _user_id_of(participant: str) -> int | None:
    kind, _, name = participant.partition(":")
    return int(name) if kind == "user" else None
