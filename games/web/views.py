"""HTML pages of the game: home, lobby, a new game, the game page and the moves posted from it.

Each view parses input, calls one service or selector, and renders. Refusals go through
``games.web.view_errors``; the pages before a game starts are ``games.web.seating_views``. Forms
post plainly and redirect after the POST, so the site works without JavaScript; with htmx, a game's
forms get back only the regions of the page that changed (``games.web.page_regions``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import variants
from games.commands import deadlines as turn_deadlines
from games.commands import lobby as lobby_commands
from games.commands import play
from games.commands.presence import note_player_seen
from games.notation import document as notation
from games.reads import access, game_lists, game_view, loading, timeline
from games.reads.lobby_rows import lobby_rows, waiting_for_me_first
from games.variants import words
from games.variants.table_common import seat_names
from games.vocabulary import Status
from games.web import page_regions, seating_views
from games.web.forms import GameCreateForm, bot_descriptions
from games.web.view_errors import SeeOther, for_visible_games, translates_game_errors

LOBBY_LIST_LENGTH = 20
HOME_LIST_LENGTH = 50


# Home and lobby -------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """The home page; a player's games in play come first, those waiting for them on top."""
    my_games = (
        game_lists.game_summaries(
            game_lists.game_list_for_viewer(request.user, mine=True).filter(
                status__in=[Status.WAITING, Status.ACTIVE]
            )[:HOME_LIST_LENGTH],
            request.user,
        )
        if request.user.is_authenticated
        else []
    )
    rows = waiting_for_me_first(lobby_rows(my_games))
    return render(request, "home.html", {"my_games": rows})


def lobby(request: HttpRequest) -> HttpResponse:
    viewer = request.user
    mine = (
        lobby_rows(
            game_lists.game_summaries(
                game_lists.game_list_for_viewer(viewer, mine=True)[:50], viewer
            )
        )
        if viewer.is_authenticated
        else []
    )
    mine_ids = {game["id"] for game in mine}
    waiting = game_lists.game_list_for_viewer(viewer, status=Status.WAITING)[:LOBBY_LIST_LENGTH]
    playing = game_lists.game_list_for_viewer(viewer, status=Status.ACTIVE)[:LOBBY_LIST_LENGTH]
    finished = game_lists.game_list_for_viewer(viewer, status=Status.FINISHED)[:LOBBY_LIST_LENGTH]
    context = {
        # Games waiting for the viewer come first.
        "my_active": waiting_for_me_first(
            [game for game in mine if game["status"] in (Status.WAITING, Status.ACTIVE)]
        ),
        "my_finished": [
            game for game in mine if game["status"] not in (Status.WAITING, Status.ACTIVE)
        ][:10],
        "open_games": [
            game
            for game in lobby_rows(game_lists.game_summaries(waiting, viewer))
            if game["id"] not in mine_ids and game["is_public"] and game["open_seats"]
        ],
        "live_games": [
            game
            for game in lobby_rows(game_lists.game_summaries(playing, viewer))
            if game["id"] not in mine_ids
        ],
        "finished_games": lobby_rows(game_lists.game_summaries(finished, viewer))[:10],
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@translates_game_errors
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None, creator=request.user)
    if request.method == "POST" and form.is_valid():
        game = lobby_commands.game_create(
            variant=form.cleaned_data["variant"],
            seats=form.cleaned_data["seats"],
            created_by=request.user,
            is_public=form.cleaned_data["is_public"],
            move_seconds=form.cleaned_data["move_seconds"],
        )
        return SeeOther(reverse("game_detail", args=[game.pk]))
    status = 400 if form.is_bound else 200
    context = {"form": form, "bot_descriptions": bot_descriptions()}
    return render(request, "games/new.html", context, status=status)


# The game page --------------------------------------------------------------------------------


@require_safe
@translates_game_errors
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game = loading.game_get(game_id)
    data = game_view.game_view_for_viewer(game, request.user)
    if data["status"] == Status.WAITING:
        return seating_views.waiting_room(request, game, data)
    viewer_seat = data["viewer_seat"]
    if viewer_seat is not None:
        note_player_seen(user_id=request.user.pk, game_id=game.pk)
    context = {
        "game": data,
        "is_away": viewer_seat is not None and data["seats"][viewer_seat]["is_away"],
        # A game called off before its start has no table to show, only its result.
        "regions": page_regions.page_regions(request, game, data) if data["state"] else None,
        "table_template": variants.game_for(game.variant).table_template,
        "result": _result(data),
        "imported_note": notation.IMPORTED_NOTE if game.is_imported else None,
        "poll_ms": settings.GAME_POLL_INTERVAL_MS,
    }
    response = render(request, "games/game.html", context)
    # "no-store": Back after leaving the page must fetch the game again, never show an old
    # "Your turn" from the browser's cache.
    add_never_cache_headers(response)
    return response


@require_safe
@translates_game_errors
def game_regions(request: HttpRequest, game_id: int) -> HttpResponse:
    """The regions of the game page that changed, as htmx out-of-band swaps."""
    return page_regions.regions_response(request, game_id)


@require_safe
def game_version(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's version as an ETag: 304 while it matches If-None-Match.

    Asked every few seconds by every open game page, so it reads one column and nothing else.
    """
    version = access.game_version_for_viewer(game_id, request.user)
    if version is None:
        return JsonResponse({"error": "There is no such game."}, status=404)
    if request.user.is_authenticated:
        note_player_seen(user_id=request.user.pk, game_id=game_id)
    etag = f'"{version}"'
    if etag in (tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")):
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"version": version})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@login_required
@require_POST
@translates_game_errors
@for_visible_games
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    game = loading.game_get(game_id)
    action, expected_version, idempotency_key = variants.game_for(game.variant).action_from_form(
        request.POST
    )
    play.game_take_action(
        game_id=game_id,
        action=action,
        expected_version=expected_version,
        user=request.user,
        idempotency_key=idempotency_key,
    )
    return _changed(request, game_id)


@login_required
@require_http_methods(["GET", "POST"])
@translates_game_errors
@for_visible_games
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET asks to confirm (so it works without JavaScript); POST resigns."""
    if request.method == "POST":
        play.game_resign(game_id=game_id, user=request.user)
        messages.info(request, "You resigned.")
        return SeeOther(reverse("game_detail", args=[game_id]))
    game = loading.game_get(game_id)
    data = game_view.game_view_for_viewer(game, request.user)
    return render(request, "games/resign.html", {"game": data})


@login_required
@require_POST
@translates_game_errors
def game_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    game = lobby_commands.game_rematch(game_id=game_id, by_user=request.user)
    return SeeOther(reverse("game_detail", args=[game.pk]))


@require_safe
@translates_game_errors
def game_history(request: HttpRequest, game_id: int) -> HttpResponse:
    game = loading.game_get(game_id)
    data = game_view.game_view_for_viewer(game, request.user)
    past = timeline.game_timeline_for_viewer(game, request.user)
    events = [
        {**event, "step": index - past.first_step if index >= past.first_step else None}
        for index, event in enumerate(past.events)
    ]
    return render(request, "games/history.html", {"game": data, "events": events})


@login_required
@require_POST
@translates_game_errors
def game_reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take one's seat back from the bot it was handed to after two time-outs."""
    turn_deadlines.game_reclaim_seat(game_id=game_id, user=request.user)
    messages.info(request, "Your seat is yours again: the bot stopped playing for you.")
    return SeeOther(reverse("game_detail", args=[game_id]))


def _changed(request: HttpRequest, game_id: int) -> HttpResponse:
    """After an accepted move: the fresh regions for htmx, else back to the game page."""
    if request.htmx:
        return page_regions.regions_response(request, game_id)
    return SeeOther(reverse("game_detail", args=[game_id]))


def _result(data: Mapping[str, Any]) -> dict[str, Any] | None:
    if data["status"] not in (Status.FINISHED, Status.ABORTED):
        return None
    players = data["state"]["players"] if data["state"] is not None else ()
    result = words.result_for_page(data["result"], seat_names(data), players)
    # The score breakdown, as the API gives it: points from cards, and from the nobles (base
    # game) or the royal cards (Duel) a player gained.
    besides_cards = variants.game_for(data["variant"]).ending.points_besides_cards
    scores = {score["seat"]: score for score in (data["result"] or {}).get("scores", ())}
    for row in result["rows"]:
        if row["seat"] in scores:
            row["extra_name"] = besides_cards
            row["extra_points"] = scores[row["seat"]][besides_cards]
            row["card_points"] = scores[row["seat"]]["cards"]
    return result
