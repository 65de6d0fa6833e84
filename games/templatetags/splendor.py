"""Template tags of the game pages: the hidden inputs every move carries, and region markup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.templatetags.pieces import move_inputs_markup

register = template.Library()


@register.simple_tag(takes_context=True)
def move_inputs(context: template.Context) -> str:
    """The version the page shows and a fresh idempotency key, as hidden inputs (see
    ``pieces.move_inputs_markup``)."""
    return move_inputs_markup(context["game"]["version"])


@register.simple_tag(takes_context=True)
def region_attrs(context: template.Context, name: str, region: Mapping[str, Any]) -> str:
    """The attributes that make an element a swappable region of the game page.

    ``data-version`` is the game's version the region was drawn at: the page never replaces a
    region with one drawn at an older version. A picture of a "How to play" page (context
    ``illustration``) is no region: it has none of these, and several of one kind share a page.
    """
    if context.get("illustration"):
        return format_html('data-picture="{}"', name)
    oob = mark_safe(' hx-swap-oob="true"') if context.get("oob") else ""
    return format_html(
        'id="region-{}" data-region="{}" data-digest="{}" data-version="{}"{}',
        name,
        name,
        region["digest"],
        context["game"]["version"],
        oob,
    )


@register.filter
def get(mapping: Mapping[str, Any] | None, key: str) -> Any:
    """``mapping[key]`` in a template, for keys held in variables."""
    return None if mapping is None else mapping.get(key)


@register.filter
def plural(count: int, word: str) -> str:
    """``3|plural:"card"`` gives "3 cards"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
