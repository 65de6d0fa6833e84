"""The "How to play" page of each game: its rules in the site's words, with pictures drawn by
the table's own templates from example positions (``games.variants.base.HowToPlay``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games import variants


@require_safe
def how_to_play(request: HttpRequest, variant: str) -> HttpResponse:
    game = variants.GAMES.get(variant)
    if game is None or game.how_to_play is None:
        raise Http404("The site offers no such game.")
    context = {
        "guide": game,
        "pictures": game.how_to_play.examples(),
        "content_template": game.how_to_play.template,
        "other_games": [other for other in variants.offered() if other.variant != variant],
        # The table's region templates draw these pictures as pictures, not page regions.
        "illustration": True,
    }
    return render(request, "games/how_to_play/page.html", context)
