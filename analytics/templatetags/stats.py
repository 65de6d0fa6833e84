"""Filters for the statistics pages: rates as percentages, gem letters, sortable cells."""

from __future__ import annotations

from typing import Any

from django import template

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


@register.filter
def label(name: Any) -> str:
    return name.replace("_", " ") if isinstance(name, str) else str(name)


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
    from analytics import selectors
    from analytics.filters import StatsFilter

    return {"player": player, "data": selectors.player_statistics(player.pk, StatsFilter())}
