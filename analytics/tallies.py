"""The aggregates of a game's facts, as counters to add to ``Tally`` rows.

Every statistic is a ratio or a mean of sums, so adding each game's counters to its bucket
(variant, player count, bots or not, day) and summing the buckets a filter selects gives the
same numbers as recounting every game. ``add_tallies`` adds with one upsert per batch, rows in
key order, so concurrent writers lock rows in the same order and cannot deadlock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, date

from django.db import connection

from analytics.facts import GameFact

Bucket = tuple[str, int, bool, date]
TallyKey = tuple[str, int, bool, date, str, str]
BATCH_ROWS = 2000


def bucket_of(fact: GameFact) -> Bucket:
    """Days are UTC days: the date filters read them so."""
    day = fact.finished_at.astimezone(UTC).date()
    return (fact.variant, fact.player_count, fact.with_bots, day)


def tallies_of(fact: GameFact) -> Counter[tuple[str, str]]:
    """(metric, item) → amount, for one game."""
    counts: Counter[tuple[str, str]] = Counter()
    won = {seat.seat: seat.won for seat in fact.seats}
    counts["games", ""] += 1
    counts["seats", ""] += fact.player_count
    counts["winners", ""] += sum(won.values())
    counts["rounds", str(fact.rounds)] += 1
    counts["ended_by", fact.ended_by] += 1
    for card in fact.cards_seen:
        counts["card.seen", str(card)] += 1
    for card, seat, turn in fact.purchases:
        counts["card.bought", str(card)] += 1
        counts["card.turns", str(card)] += turn
        counts["card.buyer_wins", str(card)] += won[seat]
    for card, _seat, _turn in fact.reserves:
        counts["card.reserved", str(card)] += 1
    for noble in fact.nobles_in_play:
        counts["noble.in_play", str(noble)] += 1
    for noble, seat, _turn in fact.visits:
        counts["noble.visits", str(noble)] += 1
        counts["noble.visited_wins", str(noble)] += won[seat]
    for seat in fact.seats:
        counts["seat.games", str(seat.seat)] += 1
        counts["seat.wins", str(seat.seat)] += seat.won
        counts["points", str(seat.points)] += 1
        counts["kind.games", seat.kind] += 1
        counts["kind.wins", seat.kind] += seat.won
        for action, amount in seat.actions.items():
            counts["action", action] += amount
        for other in fact.seats:
            if other.seat == seat.seat:
                continue
            pair = f"{seat.kind}|{other.kind}"
            counts["versus.games", pair] += 1
            counts["versus.ahead", pair] += seat.rank < other.rank
    return counts


def keyed(fact: GameFact) -> Counter[TallyKey]:
    if not fact.is_rated:  # imported and forked games stay out of the population's numbers
        return Counter()
    bucket = bucket_of(fact)
    return Counter(
        {(*bucket, metric, item): amount for (metric, item), amount in tallies_of(fact).items()}
    )


def add_tallies(counts: Counter[TallyKey]) -> None:
    """Add the counters to their rows, creating the rows that do not exist yet."""
    rows = sorted((key, amount) for key, amount in counts.items() if amount)
    for start in range(0, len(rows), BATCH_ROWS):
        _upsert(rows[start : start + BATCH_ROWS])


def _upsert(rows: Iterable[tuple[TallyKey, int]]) -> None:
    params: list[object] = []
    values = []
    for key, amount in rows:
        values.append("(%s, %s, %s, %s, %s, %s, %s)")
        params.extend((*key, amount))
    if not values:
        return
    sql = (
        "INSERT INTO analytics_tally (variant, player_count, with_bots, day, metric, item, value) "
        f"VALUES {', '.join(values)} "
        "ON CONFLICT (variant, player_count, with_bots, day, metric, item) "
        "DO UPDATE SET value = analytics_tally.value + excluded.value"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
