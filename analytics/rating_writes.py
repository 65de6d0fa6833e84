"""Writing ratings: after one counted game, and for every game again in a rebuild.

Only ``analytics.projections`` calls these, inside its transactions; ``analytics.ratings`` does
the arithmetic. A rebuild replays the results in the order the games finished.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from itertools import groupby

from analytics import ratings
from analytics.bulk import insert_rows
from analytics.facts import GameFact
from analytics.models import Rating, RatingChange, SeatFacts

REBUILD_BATCH_GAMES = 500
_CHANGE_FIELDS = ("game_id", "variant", "participant", "user_id", "ordinal_before", "mu", "sigma",
                  "ordinal", "finished_at")  # fmt: skip
_RATING_FIELDS = ("variant", "participant", "user_id", "bot_level", "mu", "sigma", "ordinal",
                  "games")  # fmt: skip


def rate_game(fact: GameFact) -> None:
    """Rate one finished game: its participants' rows, locked, and the rating history."""
    seats = [
        (ratings.participant_of(seat.user_id, seat.bot_level), seat.rank) for seat in fact.seats
    ]
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
    updated, created = [], []
    for participant, (_before, skill) in changes.items():
        if participant in stored:
            row = stored[participant]
            row.mu, row.sigma, row.ordinal, row.games = (
                skill.mu,
                skill.sigma,
                skill.ordinal,
                skill.games,
            )
            updated.append(row)
        else:
            # A plain insert: two first games of one participant racing meet on the unique
            # constraint, and the loser's task fails and is counted again, never overwritten.
            created.append(Rating(**dict(zip(_RATING_FIELDS, _rating_row(
                fact.variant, participant, skill), strict=True))))  # fmt: skip
    if updated:
        Rating.objects.bulk_update(updated, ["mu", "sigma", "ordinal", "games"])
    if created:
        Rating.objects.bulk_create(created)
    RatingChange.objects.bulk_create(
        RatingChange(**dict(zip(_CHANGE_FIELDS, row, strict=True)))
        for row in _change_rows(fact.game_id, fact.variant, fact.finished_at, changes)
    )


def rate_every_game() -> Iterator[list[int]]:
    """Rate every counted game from scratch (the tables are empty), in the order they finished;
    yields the ids of the games rated, a batch at a time, for the caller to mark them counted.

    The caller writes between batches, never while one is being made: a COPY must not be open
    on the connection while this reads the next seats."""
    current: dict[tuple[str, str], ratings.Skill] = {}
    fields = ("game_id", "game__variant", "game__finished_at", "game__is_rated", "user_id",
              "bot_level", "rank")  # fmt: skip
    seat_rows = (
        SeatFacts.objects.order_by("game__finished_at", "game_id", "seat")
        .values_list(*fields)
        .iterator(chunk_size=5000)
    )
    changes_batch: list[tuple[object, ...]] = []
    games: list[int] = []
    for game_id, game_seats in groupby(seat_rows, key=lambda row: row[0]):
        rows = list(game_seats)
        _game, variant, finished_at, is_rated = rows[0][:4]
        if is_rated:
            seats = [(ratings.participant_of(row[4], row[5]), row[6]) for row in rows]
            in_variant = {
                participant: skill
                for participant, _rank in seats
                if (skill := current.get((variant, participant))) is not None
            }
            changes = ratings.rate(in_variant, seats)
            for participant, (_before, skill) in changes.items():
                current[variant, participant] = skill
            changes_batch.extend(_change_rows(game_id, variant, finished_at, changes))
        games.append(game_id)
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
            for (variant, participant), skill in sorted(current.items())
        ),
    )


def _change_rows(
    game_id: int,
    variant: str,
    finished_at: datetime,
    changes: dict[str, tuple[float, ratings.Skill]],
) -> Iterable[tuple[object, ...]]:
    for participant, (before, skill) in changes.items():
        yield (game_id, variant, participant, _user_id_of(participant), before, skill.mu,
               skill.sigma, skill.ordinal, finished_at)  # fmt: skip


def _rating_row(variant: str, participant: str, skill: ratings.Skill) -> tuple[object, ...]:
    kind, _, name = participant.partition(":")
    return (variant, participant, _user_id_of(participant), name if kind == "bot" else "",
            skill.mu, skill.sigma, skill.ordinal, skill.games)  # fmt: skip


def _user_id_of(participant: str) -> int | None:
    kind, _, name = participant.partition(":")
    return int(name) if kind == "user" else None
