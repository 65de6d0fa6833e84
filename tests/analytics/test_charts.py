"""The purchase-rate charts: a colour keeps its series (and so its paint) at every level, and
each card's bar has the card's whole slot."""

from __future__ import annotations

import re
from typing import Any

import pytest

from analytics import charts

pytestmark = pytest.mark.django_db  # the charts are cached in Django's cache


def _card(card_id: int, level: int, colour: str) -> dict[str, Any]:
    return {"id": card_id, "level": level, "colour": colour, "points": 0, "purchase_rate": 0.5}


def _series_labels(svg: str) -> dict[int, set[str]]:
    """Series number → the letters of the cards drawn in it."""
    found: dict[int, set[str]] = {}
    for number, body in re.findall(r'class="series serie-\d+ color-(\d+)">(.*?)</g></g>', svg):
        found[int(number)] = set(re.findall(r"card \d+ \((.)\)", body))
    return found


def test_a_colour_keeps_its_series_at_a_level_that_lacks_an_earlier_colour() -> None:
    # Level 1 has every colour and a joker; level 2 has no white card but a joker.
    cards = [_card(0, 1, "white"), _card(1, 1, "blue"), _card(2, 1, "joker"),
             _card(3, 2, "blue"), _card(4, 2, "joker")]  # fmt: skip

    level_one = _series_labels(charts.card_purchase_rates(cards, 1))
    level_two = _series_labels(charts.card_purchase_rates(cards, 2))

    assert level_two == {0: set(), 1: {"B"}, 2: {"J"}}
    assert level_one == {0: {"W"}, 1: {"B"}, 2: {"J"}}


def test_each_bar_has_the_whole_slot_of_its_card() -> None:
    cards = [_card(number, 1, colour) for number, colour in enumerate(("white", "blue", "red"))]

    svg = charts.card_purchase_rates(cards, 1)

    card_bar = r'<desc class="label">card \d+ \(.\)</desc><rect [^>]*?width="([^"]+)"'
    widths = [float(width) for width in re.findall(card_bar, svg)]
    slot = 654 / 3  # the plot's width shared by three cards
    assert len(widths) == 3
    assert all(width > slot / 2 for width in widths)
