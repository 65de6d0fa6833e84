"""The pages of a game before its start: the waiting room, taking and leaving seats, adding
bots, calling the game off, and the invite link."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST

from games.commands import lobby
from games.errors import GameNotFound, InvalidInput
from games.models import Game
from games.reads import game_lists, loading
from games.reads.lobby_rows import lobby_rows
from games.web.forms import (
    AddBotForm,
    JoinForm,
    bot_choices,
    bot_descriptions,
    game_id_from_invite,
    invite_token,
)
from games.web.view_errors import SeeOther, for_visible_games, translates_game_errors


def waiting_room(request: HttpRequest, game: Game, data: Mapping[str, Any]) -> HttpResponse:
    user = request.user
    is_seated = data["viewer_seat"] is not None
    is_creator = user.is_authenticated and game.created_by_id == user.pk
    invite_url = (
        request.build_absolute_uri(reverse("game_invite", args=[invite_token(game.pk)]))
        if is_seated or is_creator
        else None
    )
    context = {
        "game": data,
        "is_seated": is_seated,
        "is_creator": is_creator,
        "can_manage": is_seated or is_creator,
        "has_open_seat": any(seat["is_open"] for seat in data["seats"]),
        "invite_url": invite_url,
        "bot_choices": [(value.removeprefix("bot:"), label) for value, label in bot_choices()],
        "bot_descriptions": bot_descriptions(),
        "poll_ms": settings.GAME_POLL_INTERVAL_MS,
    }
    response = render(request, "games/waiting.html", context)
    add_never_cache_headers(response)
    return response


@login_required
@require_POST
@translates_game_errors
@for_visible_games
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take a seat in a public game from the lobby; private games need their invite link."""
    form = JoinForm(request.POST)
    if not form.is_valid():
        raise InvalidInput("Choose one of the open seats.")
    lobby.game_take_seat(game_id=game_id, user=request.user, seat=form.cleaned_data["seat"])
    return SeeOther(reverse("game_detail", args=[game_id]))


@login_required
@require_POST
@translates_game_errors
@for_visible_games
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    lobby.game_leave_seat(game_id=game_id, user=request.user)
    messages.info(request, "You left the game.")
    return SeeOther(reverse("lobby"))


@login_required
@require_POST
@translates_game_errors
@for_visible_games
def game_add_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    form = AddBotForm(request.POST)
    if not form.is_valid():
        raise InvalidInput(form.error_text())
    lobby.game_add_bot(
        game_id=game_id,
        level=form.cleaned_data["level"],
        by_user=request.user,
        seat=form.cleaned_data["seat"],
    )
    return SeeOther(reverse("game_detail", args=[game_id]))


@login_required
@require_POST
@translates_game_errors
@for_visible_games
def game_cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    lobby.game_abort(game_id=game_id, by_user=request.user, reason="called off by its creator")
    messages.info(request, "The game was called off.")
    return SeeOther(reverse("lobby"))


@require_http_methods(["GET", "POST"])
@translates_game_errors
def game_invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: whoever holds it may take a seat, in public and private games alike."""
    game_id = game_id_from_invite(token)
    if game_id is None:
        raise GameNotFound("This invite link is not valid (or has expired).")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return SeeOther(f"{reverse('login')}?next={request.path}")
        lobby.game_take_seat(game_id=game_id, user=request.user, invited=True)
        return SeeOther(reverse("game_detail", args=[game_id]))
    game = loading.game_get(game_id)
    summary = lobby_rows(game_lists.game_summaries([game], request.user))[0]
    return render(request, "games/invite.html", {"game": summary})
