"""The hooks the games' pages call to show analyses, each drawing a template of this app:
``{% load analysis %}`` then ``{% analysis_panel game.id game.step %}`` (the replay page),
``{% analysis_at_step game.id game.step %}`` (the replay's stage) and
``{% player_mistakes player %}`` (a player's page). Games' templates name them; the games app
never imports this one."""

from __future__ import annotations

from typing import Any

from django import template

from analysis import pages

register = template.Library()


def _viewer(context: template.Context) -> Any:
    request = context.get("request")
    return getattr(request, "user", None)


@register.inclusion_tag("analysis/panel.html", takes_context=True)
def analysis_panel(context: template.Context, game_id: int, step: int = 0) -> dict[str, Any]:
    panel = pages.panel_context(game_id, _viewer(context))
    return {**panel, "step": step, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("analysis/at_step.html", takes_context=True)
def analysis_at_step(context: template.Context, game_id: int, step: int) -> dict[str, Any]:
    return pages.step_context(game_id, step, _viewer(context))


@register.inclusion_tag("analysis/mistakes.html", takes_context=True)
def player_mistakes(context: template.Context, player: Any) -> dict[str, Any]:
    return pages.mistakes_context(player, _viewer(context))
