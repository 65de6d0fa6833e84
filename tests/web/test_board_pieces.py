"""The board's pieces drawn in Python (games.templatetags.pieces): escaped like Django's own
``format_html``, and each move form with its own idempotency key."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template import Context, Template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.templatetags.pieces import _html

A_CARD = {
    "id": 7,
    "level": 1,
    "colour": "blue",
    "letter": "B",
    "name": "blue",
    "points": 1,
    "cost": [{"colour": "red", "letter": "R", "name": "red", "count": 2}],
    "affordable": False,
    "can_buy": True,
    "can_reserve": True,
    "payments": [
        {"value": "red:2", "gems": [{"colour": "red", "letter": "R", "name": "red", "count": 2}]}
    ],
    "is_new": False,
    "needs": "",
}


def _draw_card(card: dict[str, Any]) -> str:
    template = Template("{% load pieces %}{% card card %}")
    context = {"card": card, "game": {"id": 3, "version": 9}, "csrf_token": "TOKEN"}
    return template.render(Context(context))


@pytest.mark.parametrize(
    "value", ["say \"<b>hi</b>\" & 'bye'", 12, 0, None, True, mark_safe("<i>kept</i>"), 2.5]
)
def test_the_pieces_escape_every_value_as_format_html_does(value: Any) -> None:
    assert _html('<p title="{value}">{value}</p>', value=value) == format_html(
        '<p title="{value}">{value}</p>', value=value
    )


def test_what_a_card_needs_is_escaped() -> None:
    html = _draw_card({**A_CARD, "can_buy": False, "needs": "needs <2 red> & 1 gold"})

    assert "needs &lt;2 red&gt; &amp; 1 gold" in html
    assert "<2 red>" not in html


def test_each_move_form_of_a_card_has_its_own_idempotency_key() -> None:
    html = _draw_card(A_CARD)

    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', html)
    assert len(keys) == 2
    assert keys[0] != keys[1]
    assert html.count('name="csrfmiddlewaretoken" value="TOKEN"') == 2
    assert html.count('action="/games/3/act/"') == 2
