"""The charts' drawing (analytics.charts): pygal's own markup, read faster, and every bar of a
card chart in its gem's colour, with its letter."""

from __future__ import annotations

import re
from typing import Any

import pygal

from analytics import charts


def _draw(chart_class: type[pygal.Bar]) -> str:
    chart = chart_class(**charts._CHART_CONFIG, y_title="rate %", range=(0, 100), x_title="x")
    chart.x_labels = ["W0", "B1", "G2", "R3"]
    chart.add("rate", [{"value": 12.5, "label": "card 1"}, None, 0, {"value": 99.9, "label": "z"}])
    chart.add("other", [3, 4, None, 5])
    return chart.render(is_unicode=True)


def test_the_faster_bar_chart_draws_exactly_what_pygal_draws() -> None:
    assert _draw(charts.Bar) == _draw(pygal.Bar)


def test_each_card_bar_has_its_gem_colour_and_letter_and_a_card_never_counted_has_none() -> None:
    def card(
        card_id: int, level: int, colour: str, points: int, rate: float | None
    ) -> dict[str, Any]:
        name = f"L{level} {charts.LETTERS[colour]}{points}"  # as a game's card_label begins
        return {
            "id": card_id,
            "level": level,
            "colour": colour,
            "points": points,
            "name": name,
            "purchase_rate": rate,
        }

    cards = [
        card(1, 1, "blue", 0, 0.5),
        card(2, 1, "white", 1, None),
        card(3, 1, "white", 0, 0.25),
        card(4, 1, "black", 2, 0.0),
        card(5, 2, "red", 2, 0.75),
    ]

    svg = str(charts.card_purchase_rates(cards, 1))

    bars = re.findall(r'<g class="bar gem-(\w+)">(.*?)</g>', svg, re.S)
    assert [colour for colour, _ in bars] == ["white", "blue", "black"]
    assert [re.search(r"card (\d+) \((\w)\)", inside).groups() for _, inside in bars] == [
        ("3", "W"),
        ("1", "B"),
        ("4", "K"),
    ]
    assert ">L1 W0<" in svg  # each bar under its card's name, as the game names it
    assert ">L1 W1<" in svg  # the card never on display keeps its place on the axis
