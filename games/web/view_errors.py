"""How the pages answer a refusal, in one place, and the redirect after a POST.

Refusals from the services (``games.errors``) are turned into pages and messages by
``translates_game_errors``; ``for_visible_games`` makes a game the viewer may not see answer
as a game that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from games.errors import GameError, GameNotFound, IdempotencyKeyReused, StaleVersion
from games.reads import access
from games.web import page_regions

View = Callable[..., HttpResponse]

STALE_MESSAGE = "The game moved on while you were choosing: here is the board as it is now."


class SeeOther(HttpResponseRedirect):
    """The redirect after a POST: the browser follows it with a GET."""

    status_code = 303


def translates_game_errors(view: View) -> View:
    """Turn a service's refusal into a page: a message on the page the player comes back to.

    A GET that cannot be served gets an error page with the matching status. A refused POST
    adds the message and sends the browser back to the game (or, with htmx, sends the fresh
    regions with the message in them), having changed nothing.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except GameError as error:
            return _refused(request, error, kwargs.get("game_id"))

    return wrapper


def for_visible_games(view: View) -> View:
    """A game the user may not see answers exactly as a game id never used.

    Checked before anything else, so that no later check (a seat, the game's status, the
    version an action names) can tell a private game of others from no game at all. Goes
    inside ``translates_game_errors``.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, game_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if access.game_version_for_viewer(game_id, request.user) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        return view(request, game_id, *args, **kwargs)

    return wrapper


def _refused(request: HttpRequest, error: GameError, game_id: int | None) -> HttpResponse:
    status = error.http_status
    # A reused key means a form from an old page (the back button): the game moved on too.
    is_outdated = isinstance(error, StaleVersion | IdempotencyKeyReused)
    text = STALE_MESSAGE if is_outdated else error.message
    if request.method == "GET" or isinstance(error, GameNotFound):
        return render(request, "error.html", {"message": text, "status": status}, status=status)
    messages.error(request, text)
    if game_id is None:
        return SeeOther(reverse("lobby"))
    if request.htmx:
        return page_regions.regions_response(request, game_id, status=status)
    return SeeOther(reverse("game_detail", args=[game_id]))
