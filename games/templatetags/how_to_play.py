"""The links to every game's "How to play" page, for the site's footer."""

from __future__ import annotations

from typing import Any

from django import template

from games import variants

register = template.Library()


@register.inclusion_tag("games/how_to_play/links.html")
def how_to_play_links() -> dict[str, Any]:
    """A link per game the site offers, the base game first."""
    return {"games": variants.offered()}
