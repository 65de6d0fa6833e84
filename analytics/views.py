"""Statistics pages and their CSV downloads: thin, over ``analytics.selectors`` (games) and
``analytics.player_selectors`` (players, the leaderboard).

Filters are query parameters, so every view is a shareable link; with htmx a filter link swaps
only ``#stats-body`` and pushes the URL. A bad filter gets a 400 page that says what is wrong.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from analytics import charts, player_selectors, selectors
from analytics.filters import PLAYER_COUNTS, InvalidFilter, StatsFilter, parse_filter
from analytics.variants import analytics_for, known_variants
from games.variants import GAMES

View = Callable[..., HttpResponse]
CSV_TABLES = (
    "cards",
    "nobles",
    "seat_order",
    "rounds",
    "points",
    "endings",
    "actions",
    "players_by_kind",
    "versus",
)


def reads_filters(view: View) -> View:
    """Parse the filters once; a bad one is a 400 page naming it, and nothing else runs."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            stats_filter = parse_filter(request.GET.dict())
        except InvalidFilter as error:
            return render(request, "error.html", {"status": 400, "message": str(error)}, status=400)
        return view(request, stats_filter, *args, **kwargs)

    return wrapper


def _filter_links(stats_filter: StatsFilter, shown: str) -> list[dict[str, Any]]:
    """Each filter's choices as links that keep the other filters (the game has its switch);
    a game played by one number of players (Duel: two) has no choice of it."""
    counts = [count for count in PLAYER_COUNTS if count in GAMES[shown].seat_counts]
    groups = [
        ("Players", "players", [(None, "all")] + [(n, str(n)) for n in counts]),
        ("Opponents", "bots", [("", "all"), ("humans", "people only"), ("bots", "with bots")]),
    ]
    if len(counts) < 2:
        groups.pop(0)
    return [
        {
            "label": label,
            "choices": [
                {
                    "label": text,
                    "query": stats_filter.with_(**{name: value}).query_string(),
                    "is_current": getattr(stats_filter, name) == value,
                }
                for value, text in choices
            ],
        }
        for label, name, choices in groups
    ]


def _game_switch(stats_filter: StatsFilter, shown: str) -> list[dict[str, Any]]:
    """The page shows one game at a time: a link per game, keeping the other filters."""
    return [
        {
            "label": GAMES[variant].title,
            "query": _switched(stats_filter, variant).query_string(),
            "is_current": variant == shown,
        }
        for variant in known_variants()
    ]


def _switched(stats_filter: StatsFilter, variant: str) -> StatsFilter:
    """The filter on another game: a player count that game is not played with is dropped (a
    Duel is for two), as its page offers no choice of it to undo."""
    players = stats_filter.players
    if players not in GAMES[variant].seat_counts:
        players = None
    return stats_filter.with_(variant=variant, players=players)


@require_safe
@reads_filters
# htmx asks for the body alone at the page's own address: Vary keeps the browser's cache from
# showing that body as the page on Back.
@vary_on_headers("HX-Request")
def stats_overview(request: HttpRequest, stats_filter: StatsFilter) -> HttpResponse:
    # The body is the same for everyone (it shows no user's own data), so it is drawn once per
    # filter set and version of the numbers; the page around it is drawn per request.
    body = selectors.cached(
        f"stats-body?{stats_filter.query_string()}", lambda: _stats_body(stats_filter)
    )
    if request.htmx:
        return HttpResponse(body)
    return render(request, "analytics/stats.html", {"body": mark_safe(body)})


def _stats_body(stats_filter: StatsFilter) -> str:
    # One game at a time: without a variant the page shows the first (the API still sums all).
    shown = (
        stats_filter if stats_filter.variant else stats_filter.with_(variant=known_variants()[0])
    )
    stats = selectors.statistics(shown)
    sections = _variant_sections(stats, shown)
    context = {
        "stats": stats,
        "filter": stats_filter,
        "filter_links": _filter_links(stats_filter, shown.variant),
        "game_switch": _game_switch(stats_filter, shown.variant),
        # Card and noble pages filter by their own game; a CSV names the game shown.
        "query": stats_filter.query_string(),
        "csv_query": shown.query_string(),
        "section": sections[0],
        "summary": selectors.summary(stats),
        "seat_chart": charts.seat_win_rates(stats["seat_order"], sections[0]["turn_order"].heading),
        "rounds_chart": charts.histogram(stats["rounds"], "rounds", "games", "Game length"),
        "points_chart": charts.histogram(
            stats["points"], "points", "players", "Final points of every player"
        ),
    }
    return render_to_string("analytics/partials/stats_body.html", context)


def _variant_sections(stats: dict[str, Any], stats_filter: StatsFilter) -> list[dict[str, Any]]:
    """The cards, nobles and own numbers of each variant the filter shows: the one it names, or
    every variant with a finished game (the first when there is none yet)."""
    shown = [row["variant"] for row in stats["variants"] if row["games"]]
    if stats_filter.variant or not shown:
        shown = [stats["variants"][0]["variant"]]
    several = len(shown) > 1
    sections = []
    for variant in shown:
        title = GAMES[variant].title
        cards = [card for card in stats["cards"] if card["variant"] == variant]
        levels = sorted({card["level"] for card in cards})
        own_numbers = stats.get(variant)
        seam = analytics_for(variant)
        sections.append(
            {
                "variant": variant,
                "title": title,
                "noble_words": seam.noble_words,
                "card_key": seam.card_key,
                "turn_order": seam.turn_order,
                "endings_note": seam.endings_note,
                "card_charts": [
                    (level, charts.card_purchase_rates(cards, level, title if several else ""))
                    for level in levels
                ],
                "cards_by_level": [
                    (level, [card for card in cards if card["level"] == level]) for level in levels
                ],
                "nobles": [noble for noble in stats["nobles"] if noble["variant"] == variant],
                "own_numbers": own_numbers,
                "own_template": f"analytics/partials/{variant}.html" if own_numbers else "",
            }
        )
    return sections


@require_safe
@reads_filters
def stats_csv(request: HttpRequest, stats_filter: StatsFilter, table: str) -> HttpResponse:
    stats = selectors.statistics(stats_filter)
    if table in CSV_TABLES:
        return _csv(f"splendor-{table}.csv", stats[table])
    # A variant's own numbers: "<variant>_<table>", e.g. duel_abilities.
    variant, _, name = table.partition("_")
    own = stats.get(variant) if variant in known_variants() else None
    rows = own.get(name) if isinstance(own, dict) else None
    if not isinstance(rows, list | dict):
        raise Http404(f"There is no table {table!r}.")
    return _csv(f"splendor-{table}.csv", [rows] if isinstance(rows, dict) else rows)


@require_safe
@reads_filters
def card_detail(
    request: HttpRequest, stats_filter: StatsFilter, variant: str, card_id: int
) -> HttpResponse:
    try:
        data = selectors.card_statistics(variant, card_id, stats_filter)
    except LookupError as error:
        raise Http404(str(error)) from None
    context = {
        "data": data,
        "card": data["card"],
        "game_title": GAMES[variant].title,
        "query": stats_filter.query_string(),
    }
    return render(request, "analytics/card.html", context)


@require_safe
@reads_filters
def noble_detail(
    request: HttpRequest, stats_filter: StatsFilter, variant: str, noble_id: int
) -> HttpResponse:
    try:
        data = selectors.noble_statistics(variant, noble_id, stats_filter)
    except LookupError as error:
        raise Http404(str(error)) from None
    return render(
        request,
        "analytics/noble.html",
        {
            "noble": data["noble"],
            "game_title": GAMES[variant].title,
            "words": analytics_for(variant).noble_words,
            "query": stats_filter.query_string(),
        },
    )


@require_safe
@reads_filters
def player_detail(request: HttpRequest, stats_filter: StatsFilter, user_id: int) -> HttpResponse:
    player = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if player is None:
        raise Http404("There is no such player.")
    data = player_selectors.player_statistics(user_id, stats_filter)
    context = {
        "player": player,
        "data": data,
        "provisional_games": settings.RATING_PROVISIONAL_GAMES,
    }
    return render(request, "analytics/player.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    variant = request.GET.get("variant", known_variants()[0])
    if variant not in known_variants():
        message = f"variant must be one of: {', '.join(known_variants())}."
        return render(request, "error.html", {"status": 400, "message": message}, status=400)
    data = player_selectors.leaderboard(variant)
    if request.GET.get("format") == "csv":
        return _csv(f"{variant}-leaderboard.csv", data["players"])
    return render(
        request,
        "analytics/leaderboard.html",
        {
            "data": data,
            "variants": known_variants(),
            "provisional_games": settings.RATING_PROVISIONAL_GAMES,
        },
    )


def _csv(filename: str, rows: Iterable[dict[str, Any]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    flat = [{key: _cell(value) for key, value in row.items()} for row in rows]
    # Every column any row has (a Duel card has an ability, a base-game card none), in order.
    columns = list(dict.fromkeys(key for row in flat for key in row))
    if columns:
        writer = csv.DictWriter(response, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(flat)
    return response


def _cell(value: Any) -> Any:
    if isinstance(value, dict):
        return " ".join(
            f"{count}{charts.LETTERS.get(colour, colour)}" for colour, count in value.items()
        )
    return "" if value is None else value
