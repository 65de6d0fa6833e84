"""The aggregates of a game's facts, as counters to add to ``Tally`` rows.

Every statistic is a ratio or a mean of sums, so adding each game's counters to its bucket
(variant, player count, bots or not, day) and summing the buckets a filter selects gives the
same numbers as recounting every game. ``add_tallies`` adds with one upsert per batch, rows in
key order, so concurrent writers lock rows in the same order and cannot deadlock. A rebuild sums
in memory (``Totals``) and inserts once. A variant adds its own counters through
``GameFact.variant_tallies``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, date

from django.db import connection

from analytics.bulk import insert_rows
from analytics.facts import GameFact
from analytics.models import Tally

Bucket = tuple[str, int, bool, date]
TallyKey = tuple[str, int, bool, date, str, str]
BATCH_ROWS = 2000


def bucket_of(fact: GameFact) -> Bucket:
    """Days are UTC days: the date filters read them so."""
    day = fact.finished_at.astimezone(UTC).date()
    return (fact.variant, fact.player_count, fact.with_bots, day)


def tallies_of(fact: GameFact) -> dict[tuple[str, str], int]:
    """(metric, item) → amount, for one game."""
    counts: dict[tuple[str, str], int] = {}
    add_game(fact, counts)
    return counts


def add_game(fact: GameFact, sums: dict[tuple[str, str], int]) -> None:
    """Add one game's counters to ``sums``. Inline dict arithmetic, no call per counter: a
    rebuild runs this for every game, a few hundred counters each."""
    get = sums.get
    won = [seat.won for seat in fact.seats]
    for key, amount in (
        (("games", ""), 1),
        (("seats", ""), fact.player_count),
        (("winners", ""), sum(won)),
        (("rounds", str(fact.rounds)), 1),
        (("ended_by", fact.ended_by), 1),
        *fact.variant_tallies,
    ):
        sums[key] = get(key, 0) + amount
    for card in fact.cards_seen:
        key = ("card.seen", str(card))
        sums[key] = get(key, 0) + 1
    for card, seat, turn in fact.purchases:
        item = str(card)
        key = ("card.bought", item)
        sums[key] = get(key, 0) + 1
        key = ("card.turns", item)
        sums[key] = get(key, 0) + turn
        key = ("card.buyer_wins", item)
        sums[key] = get(key, 0) + won[seat]
    for card, _seat, _turn in fact.reserves:
        key = ("card.reserved", str(card))
        sums[key] = get(key, 0) + 1
    for noble in fact.nobles_in_play:
        key = ("noble.in_play", str(noble))
        sums[key] = get(key, 0) + 1
    for noble, seat, _turn in fact.visits:
        item = str(noble)
        key = ("noble.visits", item)
        sums[key] = get(key, 0) + 1
        key = ("noble.visited_wins", item)
        sums[key] = get(key, 0) + won[seat]
    for seat in fact.seats:
        # "seat.*" counts the place in the order of play, which is the seat in the base game but
        # not in Splendor Duel, where a draw decides who starts.
        place, kind, seat_won = str(fact.place_of(seat.seat)), seat.kind, seat.won
        for key, amount in (
            (("seat.games", place), 1),
            (("seat.wins", place), seat_won),
            (("points", str(seat.points)), 1),
            (("kind.games", kind), 1),
            (("kind.wins", kind), seat_won),
        ):
            sums[key] = get(key, 0) + amount
        for action, amount in seat.actions.items():
            key = ("action", action)
            sums[key] = get(key, 0) + amount
        for other in fact.seats:
            if other.seat == seat.seat:
                continue
            pair = f"{kind}|{other.kind}"
            key = ("versus.games", pair)
            sums[key] = get(key, 0) + 1
            key = ("versus.ahead", pair)
            sums[key] = get(key, 0) + (seat.rank < other.rank)


def keyed(fact: GameFact) -> Counter[TallyKey]:
    if not fact.is_rated:  # imported and forked games stay out of the population's numbers
        return Counter()
    bucket = bucket_of(fact)
    return Counter(
        {(*bucket, metric, item): amount for (metric, item), amount in tallies_of(fact).items()}
    )


class Totals:
    """The tallies of many games, summed per bucket in memory: what a rebuild writes at the end.

    Bounded by the buckets (variants × player counts × bots × days × items), not by the games.
    """

    def __init__(self) -> None:
        self.buckets: dict[Bucket, dict[tuple[str, str], int]] = {}

    def add(self, fact: GameFact) -> None:
        if fact.is_rated:  # imported and forked games stay out, as in ``keyed``
            add_game(fact, self.buckets.setdefault(bucket_of(fact), {}))

    def merge(self, other: Totals) -> None:
        for bucket, sums in other.buckets.items():
            mine = self.buckets.get(bucket)
            if mine is None:
                self.buckets[bucket] = sums
                continue
            get = mine.get
            for key, amount in sums.items():
                mine[key] = get(key, 0) + amount

    def write(self) -> None:
        """Insert every row: the rebuild emptied the table, so there is nothing to add to."""
        insert_rows(
            Tally,
            ("variant", "player_count", "with_bots", "day", "metric", "item", "value"),
            (
                (*bucket, metric, item, amount)
                for bucket, sums in sorted(self.buckets.items())
                for (metric, item), amount in sorted(sums.items())
                if amount
            ),
        )


def add_tallies(counts: Counter[TallyKey]) -> None:
    """Add the counters to their rows, creating the rows that do not exist yet."""
    rows = sorted((key, amount) for key, amount in counts.items() if amount)
    for start in range(0, len(rows), BATCH_ROWS):
        _upsert(rows[start : start + BATCH_ROWS])


_COLUMNS = "variant, player_count, with_bots, day, metric, item, value"
_ON_CONFLICT = (
    "ON CONFLICT (variant, player_count, with_bots, day, metric, item) "
    "DO UPDATE SET value = analytics_tally.value + excluded.value"
)
_UNNEST = (
    f"INSERT INTO analytics_tally ({_COLUMNS}) SELECT * FROM unnest(%s::varchar[], "
    f"%s::smallint[], %s::boolean[], %s::date[], %s::varchar[], %s::varchar[], %s::bigint[]) "
    f"{_ON_CONFLICT}"
)


def _upsert(rows: Sequence[tuple[TallyKey, int]]) -> None:
    if not rows:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Seven arrays, not seven placeholders a row: the driver has one short query to bind.
            columns = [list(column) for column in zip(*(key for key, _ in rows), strict=True)]
            cursor.execute(_UNNEST, [*columns, [amount for _, amount in rows]])
            return
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(rows))
        params = [value for key, amount in rows for value in (*key, amount)]
        cursor.execute(
            f"INSERT INTO analytics_tally ({_COLUMNS}) VALUES {values} {_ON_CONFLICT}", params
        )
