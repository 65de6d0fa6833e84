"""Reads of the statistics of games (the overview, a card, a noble), shared by the pages, the API
and the CSV downloads; a player's own numbers and the leaderboard are in
``analytics.player_selectors``.

Each function returns plain JSON-ready dicts, so the three cannot disagree. Rates are ``None``
where nothing was counted (a card never in play has no purchase rate, not a rate of zero).
The overview is cached per filter set under the version of the numbers (``StatsVersion``), which
every count changes in its own transaction: a cached answer is never older than the last commit.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import QuerySet, Sum

from analytics.filters import StatsFilter
from analytics.models import StatsVersion, Tally
from analytics.variants import analytics_for, known_variants
from games.variants import GAMES
from games.variants.play_facts import TURN_ORDER_IN_ANY_GAME, TurnOrderWords

Sums = dict[tuple[str, str], int]
T = TypeVar("T")
CACHE_SECONDS = 24 * 3600
"""Entries are never stale (their key changes with the numbers); this only frees the memory of
versions nobody reads any more."""


def ratio(numerator: float, denominator: float) -> float | None:
    """``numerator / denominator``, or None where nothing was counted (``denominator`` 0)."""
    return numerator / denominator if denominator else None


def _tallies(stats_filter: StatsFilter) -> QuerySet[Tally]:
    rows = Tally.objects.all()
    if stats_filter.variant:
        rows = rows.filter(variant=stats_filter.variant)
    if stats_filter.players:
        rows = rows.filter(player_count=stats_filter.players)
    if stats_filter.bots:
        rows = rows.filter(with_bots=stats_filter.bots == "bots")
    if stats_filter.since:
        rows = rows.filter(day__gte=stats_filter.since)
    if stats_filter.until:
        rows = rows.filter(day__lte=stats_filter.until)
    return rows


def _sums_by_variant(rows: QuerySet[Tally]) -> dict[str, Sums]:
    by_variant: dict[str, Sums] = defaultdict(dict)
    for variant, metric, item, total in (
        rows.values_list("variant", "metric", "item").annotate(total=Sum("value")).order_by()
    ):
        by_variant[variant][metric, item] = total
    return by_variant


def _merged(by_variant: dict[str, Sums], prefixes: tuple[str, ...]) -> Sums:
    """Sums over every variant of the metrics that mean the same in all of them."""
    merged: Counter[tuple[str, str]] = Counter()
    for sums in by_variant.values():
        merged.update({key: value for key, value in sums.items() if key[0].startswith(prefixes)})
    return dict(merged)


def _items(sums: Sums, metric: str) -> dict[str, int]:
    return {item: value for (name, item), value in sums.items() if name == metric}


def statistics_version() -> str | None:
    """The token of the numbers as last committed (``StatsVersion``); ``None`` before any."""
    return StatsVersion.objects.filter(pk=1).values_list("token", flat=True).first()


def cached(key: str, compute: Callable[[], T], version: str | None = None) -> T:
    """``compute()``, kept in the cache under ``key`` until the numbers change."""
    version = version or statistics_version()
    if version is None:
        return compute()
    full_key = f"analytics:{version}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = compute()
        cache.set(full_key, value, CACHE_SECONDS)
    return value


def statistics(stats_filter: StatsFilter) -> dict[str, Any]:
    """Every statistic of the finished games the filter selects (cached per filter set)."""
    return cached(f"statistics?{stats_filter.query_string()}", lambda: _statistics(stats_filter))


def _statistics(stats_filter: StatsFilter) -> dict[str, Any]:
    by_variant = _sums_by_variant(_tallies(stats_filter))
    common = _merged(
        by_variant,
        (
            "games",
            "seats",
            "winners",
            "rounds",
            "points",
            "ended_by",
            "action",
            "seat.",
            "kind.",
            "versus.",
        ),
    )
    games = common.get(("games", ""), 0)
    seats = common.get(("seats", ""), 0)
    base = ratio(common.get(("winners", ""), 0), seats)
    variants = [stats_filter.variant] if stats_filter.variant else list(known_variants())
    own_numbers = {
        name: summary(by_variant.get(name, {})) if name in variants else None
        for name in known_variants()
        if (summary := analytics_for(name).summary) is not None
    }
    return {
        "filters": stats_filter.to_params(),
        "games": games,
        "seats": seats,
        "base_win_rate": base,
        "cards": [row for variant in variants for row in _card_rows(variant, by_variant)],
        "nobles": [row for variant in variants for row in _noble_rows(variant, by_variant)],
        "seat_order": _seat_rows(common, turn_order_words(stats_filter.variant)),
        "rounds": _histogram(_items(common, "rounds"), "rounds", "games"),
        "points": _histogram(_items(common, "points"), "points", "players"),
        "endings": _shares(_items(common, "ended_by"), "ended_by", "games"),
        "actions": _shares(_items(common, "action"), "action", "count"),
        "players_by_kind": _kind_rows(common),
        "versus": _versus_rows(common),
        "variants": [
            {"variant": name, "games": by_variant.get(name, {}).get(("games", ""), 0)}
            for name in variants
        ],
        **own_numbers,
    }


def summary(stats: dict[str, Any]) -> dict[str, Any]:
    """What a reader looks at first: win rate by seat, the mean length in rounds, and the cards
    bought most and least often once in play (ties: the lower card id)."""
    lengths = stats["rounds"]
    games = sum(row["games"] for row in lengths)
    rated = [card for card in stats["cards"] if card["purchase_rate"] is not None]
    by_rate = sorted(rated, key=lambda card: (-card["purchase_rate"], card["id"]))
    least = sorted(rated, key=lambda card: (card["purchase_rate"], card["id"]))
    return {
        "seats": stats["seat_order"],
        "mean_rounds": ratio(sum(row["rounds"] * row["games"] for row in lengths), games),
        "most_bought": by_rate[:3],
        "least_bought": least[:3],
    }


def turn_order_words(variant: str) -> TurnOrderWords:
    """How to name the places in the order of play: in the game's own words, or in words true of
    every game when the numbers sum several."""
    return analytics_for(variant).turn_order if variant else TURN_ORDER_IN_ANY_GAME


def _card_rows(variant: str, by_variant: dict[str, Sums]) -> Iterable[dict[str, Any]]:
    sums = by_variant.get(variant, {})
    base = ratio(sums.get(("winners", ""), 0), sums.get(("seats", ""), 0))
    seam = analytics_for(variant)
    for card in seam.cards():
        key = str(card["id"])
        seen = sums.get(("card.seen", key), 0)
        bought = sums.get(("card.bought", key), 0)
        buyer_win_rate = ratio(sums.get(("card.buyer_wins", key), 0), bought)
        yield {
            "variant": variant,
            **card,
            "name": seam.card_label(card),
            "times_on_display": seen,
            "times_bought": bought,
            "times_reserved": sums.get(("card.reserved", key), 0),
            "purchase_rate": ratio(bought, seen),
            "mean_turn_of_purchase": ratio(sums.get(("card.turns", key), 0), bought),
            "buyer_win_rate": buyer_win_rate,
            "lift": None if buyer_win_rate is None or not base else buyer_win_rate / base,
        }


def _noble_rows(variant: str, by_variant: dict[str, Sums]) -> Iterable[dict[str, Any]]:
    sums = by_variant.get(variant, {})
    for noble in analytics_for(variant).nobles():
        key = str(noble["id"])
        in_play = sums.get(("noble.in_play", key), 0)
        visits = sums.get(("noble.visits", key), 0)
        yield {
            "variant": variant,
            **noble,
            "games_in_play": in_play,
            "visits": visits,
            "visit_rate": ratio(visits, in_play),
            "visited_win_rate": ratio(sums.get(("noble.visited_wins", key), 0), visits),
        }


def _seat_rows(sums: Sums, words: TurnOrderWords) -> list[dict[str, Any]]:
    """Win rates by place in the order of play ("seat" 1 moved first), each place named."""
    games = _items(sums, "seat.games")
    wins = _items(sums, "seat.wins")
    return [
        {
            "seat": int(seat) + 1,
            "player": words.places[int(seat)],
            "games": games[seat],
            "wins": wins.get(seat, 0),
            "win_rate": ratio(wins.get(seat, 0), games[seat]),
        }
        for seat in sorted(games, key=int)
    ]


def _histogram(counts: dict[str, int], key: str, label: str) -> list[dict[str, Any]]:
    return [{key: int(value), label: counts[value]} for value in sorted(counts, key=int)]


def _shares(counts: dict[str, int], key: str, label: str) -> list[dict[str, Any]]:
    total = sum(counts.values())
    return [
        {key: name, label: counts[name], "share": ratio(counts[name], total)}
        for name in sorted(counts, key=lambda name: (-counts[name], name))
    ]


def _kind_rows(sums: Sums) -> list[dict[str, Any]]:
    games = _items(sums, "kind.games")
    wins = _items(sums, "kind.wins")
    return [
        {
            "kind": kind,
            "games": games[kind],
            "wins": wins.get(kind, 0),
            "win_rate": ratio(wins.get(kind, 0), games[kind]),
        }
        for kind in sorted(games)
    ]


def _versus_rows(sums: Sums) -> list[dict[str, Any]]:
    encounters = _items(sums, "versus.games")
    ahead = _items(sums, "versus.ahead")
    rows = []
    for pair in sorted(encounters):
        kind, opponent = pair.split("|")
        rows.append(
            {
                "kind": kind,
                "opponent": opponent,
                "encounters": encounters[pair],
                "finished_ahead": ahead.get(pair, 0),
                "ahead_rate": ratio(ahead.get(pair, 0), encounters[pair]),
            }
        )
    return rows


def card_statistics(variant: str, card_id: int, stats_filter: StatsFilter) -> dict[str, Any]:
    """One card, overall under the filter and by player count. Raises LookupError if unknown."""
    stats_filter = stats_filter.with_(variant=variant)
    rows = _card_rows(variant, _sums_by_variant(_tallies(stats_filter)))
    card = next((row for row in rows if row["id"] == card_id), None)
    if card is None:
        raise LookupError(f"{variant} has no card {card_id}.")
    by_players = []
    for players in GAMES[variant].seat_counts:  # a Duel is for two: no rows for three or four
        if stats_filter.players not in (None, players):
            continue
        narrowed = stats_filter.with_(players=players)
        narrowed_rows = _card_rows(variant, _sums_by_variant(_tallies(narrowed)))
        row = next(row for row in narrowed_rows if row["id"] == card_id)
        by_players.append({"players": players, **{k: row[k] for k in _CARD_NUMBERS}})
    return {"filters": stats_filter.to_params(), "card": card, "by_players": by_players}


_CARD_NUMBERS = (
    "times_on_display",
    "times_bought",
    "times_reserved",
    "purchase_rate",
    "mean_turn_of_purchase",
    "buyer_win_rate",
    "lift",
)


def noble_statistics(variant: str, noble_id: int, stats_filter: StatsFilter) -> dict[str, Any]:
    stats_filter = stats_filter.with_(variant=variant)
    rows = _noble_rows(variant, _sums_by_variant(_tallies(stats_filter)))
    noble = next((row for row in rows if row["id"] == noble_id), None)
    if noble is None:
        raise LookupError(f"{variant} has no noble {noble_id}.")
    return {"filters": stats_filter.to_params(), "noble": noble}
