"""Filters for the statistics pages: rates as percentages, gem letters, sortable cells; and
their big tables, drawn in Python."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from analytics.charts import LETTERS

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.1f}%"


@register.filter
def decimal(value: float | None, places: int = 2) -> str:
    return "–" if value is None else f"{value:.{places}f}"


@register.filter
def sort_value(value: Any) -> str:
    """What a table sorts a cell by: the raw number, or nothing for no value (sorted last)."""
    return "" if value is None else str(value)


@register.filter
def gem_letter(colour: str) -> str:
    return LETTERS.get(colour, colour[:1].upper())


@register.filter
def cost_text(cost: dict[str, int]) -> str:
    return " ".join(f"{count}{LETTERS.get(colour, colour)}" for colour, count in cost.items())


_HEADINGS = {"times_on_display": "times in play"}
"""Columns whose API name no longer says what they count (see
docs/decisions/0067-analytics-finished-games-only.md)."""


@register.filter
def label(name: Any) -> str:
    if not isinstance(name, str):
        return str(name)
    return _HEADINGS.get(name, name.replace("_", " "))


@register.filter
def cell(value: Any, column: str) -> str:
    """A table cell in words by its column: a rate or share as a percentage, a mean to one
    place, any other fraction to two, a missing value as a dash."""
    if value is None:
        return "–"
    if column.endswith(("_rate", "share")):
        return percent(value)
    if column.startswith("mean_"):
        return decimal(value, 1)
    if isinstance(value, float):
        return decimal(value)
    return label(value)


@register.filter
def get_item(row: dict[str, Any], key: str) -> Any:
    return row.get(key)


@register.inclusion_tag("analytics/partials/player_summary.html")
def player_summary(player: Any) -> dict[str, Any]:
    """A player's numbers in short, for their public profile: results, mean points, ratings,
    and the way to the whole statistics page."""
    from analytics import player_selectors
    from analytics.filters import StatsFilter

    return {"player": player, "data": player_selectors.player_statistics(player.pk, StatsFilter())}


# Tables drawn in Python ------------------------------------------------------------------------
#
# The statistics page's tables hold some two thousand cells. Through the template engine, with
# a filter or two per cell, they took longer than everything else on the page but the charts;
# formatted here, each cell is one string operation. The markup is the one the templates drew.

_TEXT_COLUMNS = frozenset(
    ("player", "kind", "opponent", "ended_by", "action", "ability", "privilege")
)


def _html(markup: str, /, **values: Any) -> SafeString:
    """``markup`` with its ``{name}`` fields filled with ``values``, each escaped (markup already
    safe is kept as it is), as ``format_html`` would, without its lazy-string checks."""
    return mark_safe(markup.format_map({name: _escaped(value) for name, value in values.items()}))


def _escaped(value: Any) -> str:
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return html.escape(str(value))


@register.simple_tag
def stats_table(rows: list[dict[str, Any]], columns: str) -> SafeString:
    """A sortable table of ``rows``, one column per name in ``columns`` (space-separated):
    rates as percentages, names in words, each cell's raw value to sort by."""
    names = columns.split()
    head = "".join(
        _html(
            '<th scope="col"><button type="button" data-sort="{sort}">{title}</button></th>',
            sort="text" if name in _TEXT_COLUMNS else "number",
            title=label(name),
        )
        for name in names
    )
    body = "".join(
        "<tr>" + "".join(_cell(name, row.get(name)) for name in names) + "</tr>\n" for row in rows
    )
    if not rows:
        body = _html(
            '<tr><td colspan="{span}" class="muted">No finished game matches.</td></tr>\n',
            span=len(names),
        )
    return mark_safe(
        '<div class="table-scroll"><table class="stats-table" data-sortable>\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table></div>\n"
    )


def _cell(column: str, value: Any) -> str:
    return _html(
        '<td data-value="{sort}">{shown}</td>', sort=sort_value(value), shown=cell(value, column)
    )


_CARD_ROW = (
    '<tr>\n<td data-value="{id}"><a href="{url}?{query}">{name}</a></td>\n'
    '<td data-value="{colour}"><span class="gem gem--{colour}" title="{colour}">'
    '<svg viewBox="0 0 24 24" aria-hidden="true"><use href="#shape-{colour}"></use></svg>'
    '<b aria-hidden="true">{letter}</b><span class="visually-hidden">{colour}</span></span></td>\n'
    '<td data-value="{points}">{points}</td>\n<td>{cost}</td>\n'
    '<td data-value="{on_display}">{on_display}</td>\n'
    '<td data-value="{bought}">{bought}</td>\n'
    '<td data-value="{reserved}">{reserved}</td>\n'
    '<td data-value="{rate_value}">{rate}</td>\n'
    '<td data-value="{turn_value}">{turn}</td>\n'
    '<td data-value="{win_value}">{win}</td>\n'
    '<td data-value="{lift_value}">{lift}</td>\n</tr>\n'
)


@register.simple_tag
def card_rows(cards: list[dict[str, Any]], query: str) -> SafeString:
    """The rows of a level's card table, each card linked to its own page (with ``query``)."""
    return mark_safe(
        "".join(
            _html(
                _CARD_ROW,
                id=card["id"],
                name=card["name"],
                url=reverse("stats_card", args=[card["variant"], card["id"]]),
                query=query,
                colour=card["colour"],
                letter=gem_letter(card["colour"]),
                points=card["points"],
                cost=cost_text(card["cost"]),
                on_display=card["times_on_display"],
                bought=card["times_bought"],
                reserved=card["times_reserved"],
                rate_value=sort_value(card["purchase_rate"]),
                rate=percent(card["purchase_rate"]),
                turn_value=sort_value(card["mean_turn_of_purchase"]),
                turn=decimal(card["mean_turn_of_purchase"], 1),
                win_value=sort_value(card["buyer_win_rate"]),
                win=percent(card["buyer_win_rate"]),
                lift_value=sort_value(card["lift"]),
                lift=decimal(card["lift"]),
            )
            for card in cards
        )
    )


@register.filter
def card_name(card: dict[str, Any]) -> str:
    """A card as its game names it on the pages and its chart bar (``GameAnalytics.card_label``):
    never a bare number, which the two games' cards share."""
    return str(card["name"])
