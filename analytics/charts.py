"""Charts as SVG drawn on the server by pygal, styled by the site's own stylesheet.

pygal writes a ``<style>`` and a ``<script>`` into each chart and an inline ``style`` on its
tooltip; the site's Content-Security-Policy allows none of them, and the page needs neither
(tooltips become ``<title>`` elements). So they are removed, and ``static/analytics/charts.css``
styles the chart through pygal's classes. Every bar's label carries the gem letter, so colour is
never the only cue; the table next to each chart holds the same numbers.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

import pygal
from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from pygal.style import Style

CHART_CACHE_SECONDS = 3600
LETTERS = {
    "white": "W",
    "blue": "B",
    "green": "G",
    "red": "R",
    "black": "K",
    "gold": "★",
    "pearl": "P",
    "joker": "J",
    "none": "–",
}
_STRIPPED = (
    re.compile(r"<style\b.*?</style>", re.S),
    re.compile(r"<script\b.*?</script>", re.S),
    re.compile(r"<!--.*?-->", re.S),
)
LABEL_PX = 12
_CHART_CONFIG: dict[str, Any] = {
    "no_prefix": True,
    "js": [],
    "disable_xml_declaration": True,
    "show_legend": False,
    "height": 320,
    "width": 720,
    "margin": 12,
    "spacing": 4,
    "print_values": False,
    "show_y_guides": True,
    # Laid out for labels of 12 px, which every <text> also carries as an attribute (_svg).
    "style": Style(
        label_font_size=LABEL_PX,
        major_label_font_size=LABEL_PX,
        title_font_size=14,
        value_font_size=LABEL_PX,
        tooltip_font_size=LABEL_PX,
        legend_font_size=LABEL_PX,
    ),
    "truncate_label": -1,  # a card's whole name, never "L1 B0…"
    "css": [],  # its stylesheet would be removed anyway (see above): not even read
}


class _StateFirst:
    """A faster ``__getattribute__`` for pygal's graphs, with the same answers.

    While a pygal graph draws, every attribute read goes through ``BaseGraph.__getattribute__``
    (the drawing state first, then the graph), which asks for ``state`` twice on the way:
    three Python calls per read, tens of thousands per chart, a quarter of its drawing time.
    This reads the same two dictionaries directly. pygal's ``State`` is a plain object, so its
    ``__dict__`` is what ``getattr`` would find; ``state`` itself is always the graph's own.
    """

    def __getattribute__(self, name: str) -> Any:
        state = object.__getattribute__(self, "__dict__").get("state")
        if state is not None and name != "state" and not name.startswith("__"):
            drawing = state.__dict__
            if name in drawing:
                return drawing[name]
        return object.__getattribute__(self, name)


class Bar(_StateFirst, pygal.Bar):
    """pygal's bar chart, read faster. Named ``Bar``: pygal writes the class's name into the
    SVG (``bar-graph``), so the markup stays pygal's own."""


def _cached(draw: Callable[..., SafeString]) -> Callable[..., SafeString]:
    """Keep each chart drawn by its inputs: pygal takes tens of milliseconds per chart, and the
    numbers change only when a game finishes, so most page views draw nothing."""

    @wraps(draw)
    def cached(*args: Any) -> SafeString:
        digest = hashlib.sha256(
            json.dumps([draw.__name__, args], sort_keys=True, default=str).encode()
        ).hexdigest()
        key = f"analytics-chart:{digest}"
        svg = cache.get(key)
        if svg is None:
            svg = draw(*args)
            cache.set(key, str(svg), CHART_CACHE_SECONDS)
        return mark_safe(svg)

    return cached


def _svg(chart: pygal.graph.graph.Graph, title: str, css_class: str) -> SafeString:
    chart.config.classes = ["pygal-chart", css_class]
    markup = chart.render(is_unicode=True)
    for pattern in _STRIPPED:
        markup = pattern.sub("", markup)
    markup = markup.replace(' style="opacity: 0"', "")
    markup = markup.replace("<title>Pygal</title>", f"<title>{_escape(title)}</title>", 1)
    markup = markup.replace("<svg ", f'<svg role="img" aria-label="{_escape(title)}" ', 1)
    markup = markup.replace(' id=""', "", 1)
    markup = _TEXT.sub(_sized_text, markup)
    return mark_safe(markup)


_TEXT = re.compile(r"<text\b([^>]*)>")


def _sized_text(match: re.Match[str]) -> str:
    """A presentation attribute (allowed by the CSP, unlike ``style``): the title larger."""
    size = 14 if 'class="title' in match.group(1) else LABEL_PX
    return f'<text font-size="{size}"{match.group(1)}>'


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def _percent(value: float | None) -> float | None:
    return None if value is None else round(value * 100, 1)


def card_purchase_rates(
    cards: Sequence[dict[str, Any]], level: int, variant_title: str = ""
) -> SafeString:
    """One bar per card of a level, grouped and coloured by bonus colour, each named as its
    game names it (the rows' ``name``, from the game's ``card_label``)."""
    chosen = sorted(
        (card for card in cards if card["level"] == level),
        key=lambda card: (list(LETTERS).index(card["colour"]), card["points"], card["id"]),
    )
    title = f"Purchase rate of level {level} cards, by colour"
    if variant_title:
        title = f"{variant_title}: {title[0].lower()}{title[1:]}"
    bars = [
        (card["id"], card["colour"], card["name"], _percent(card["purchase_rate"]))
        for card in chosen
    ]
    return _card_bars(bars, title)


_BAR = re.compile(r'<g class="bar">')


@_cached
def _card_bars(bars: Sequence[tuple[int, str, str, float | None]], title: str) -> SafeString:
    """``bars``: (card, colour, label, purchase rate in %) in the order drawn.

    One series, so pygal lays out and draws each bar once (a series per colour made it walk
    every card once per colour, and cost half again as much). Each bar is then given its
    colour's class for the stylesheet: pygal draws a bar for every value but None, in order.
    """
    chart = Bar(**_CHART_CONFIG, y_title="purchase rate %", range=(0, 100), x_label_rotation=90)
    chart.x_labels = [label for _, _, label, _ in bars]
    chart.add(
        "purchase rate",
        [
            {"value": rate, "label": f"card {card} ({LETTERS[colour]}): {label}"}
            for card, colour, label, rate in bars
        ],
    )
    markup = _svg(chart, title, "chart-cards")
    colours = iter([colour for _, colour, _, rate in bars if rate is not None])
    return mark_safe(_BAR.sub(lambda _: f'<g class="bar gem-{next(colours)}">', markup))


@_cached
def seat_win_rates(rows: Sequence[dict[str, Any]], title: str) -> SafeString:
    """A bar per place in the order of play, named as the rows name it (the game's words)."""
    chart = Bar(**_CHART_CONFIG, y_title="win rate %", range=(0, 100))
    chart.x_labels = [row["player"] for row in rows]
    chart.add("win rate", [_percent(row["win_rate"]) for row in rows])
    return _svg(chart, title, "chart-plain")


@_cached
def histogram(rows: Sequence[dict[str, Any]], key: str, count: str, title: str) -> SafeString:
    chart = Bar(**_CHART_CONFIG, y_title=count, x_title=key)
    chart.x_labels = [str(row[key]) for row in rows]
    chart.add(count, [row[count] for row in rows])
    return _svg(chart, title, "chart-plain")
