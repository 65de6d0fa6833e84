"""The analysis pages: ask for an analysis of a finished game, and the panel that shows it.

The panel is drawn into the replay page by its hook (``analysis.templatetags.analysis``). While
an analysis is under way the panel listens to the game's push stream (``games.web.live``): each
time the worker announces progress (``analysis.runner``), and once when the stream opens, htmx
asks this view for it again. Under way, the answer is the progress alone, swapped into the panel
that keeps its stream; done, failed or stalled, the whole panel replaces the one shown, which
closes the stream with it. No polling while the stream is open (``static/analysis.js`` asks
every 2 s only where none opens); no inline script or style: strict CSP.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import reswap, retarget

from analysis import pages, services
from games.errors import GameError


class SeeOther(HttpResponseRedirect):
    status_code = 303


def refusals_as_pages(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A service's refusal as the site's error page, with its status (404, 409, 429)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except GameError as error:
            context = {"message": error.message, "status": error.http_status}
            return render(request, "error.html", context, status=error.http_status)

    return wrapper


@login_required
@require_POST
@refusals_as_pages
def analysis_request(request: HttpRequest, game_id: int) -> HttpResponse:
    services.request_analysis(game_id, request.user)
    step = request.POST.get("step", "")
    query = f"?step={step}" if step.isdigit() and len(step) <= 9 else ""
    return SeeOther(reverse("game_replay", args=[game_id]) + query + "#analysis")


@require_safe
@refusals_as_pages
def analysis_panel(request: HttpRequest, game_id: int) -> HttpResponse:
    context = pages.panel_context(game_id, request.user)
    if not context["shown"]:
        services.analysable_game(game_id, request.user)  # says why: 404 or 409
    step = request.GET.get("step", "")
    context["step"] = int(step) if step.isdigit() and len(step) <= 9 else 0
    if not request.htmx:
        return render(request, "analysis/panel.html", context)
    if context["listening"]:
        return render(request, "analysis/progress.html", context)
    return retarget(
        reswap(render(request, "analysis/panel.html", context), "outerHTML"), "#analysis"
    )
