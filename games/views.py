"""HTML pages. Each view parses input, calls one service or selector, and renders.

Refusals from the services (``games.errors``) are turned into pages and messages in one place,
``translates_game_errors``. Forms post plainly and redirect after the POST, so the site works
without JavaScript; with htmx, a game's forms get back only the regions of the page that
changed (``_regions_response``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from accounts.selectors import profile_for
from games import describe, selectors, services, table, timeline, turn_deadlines, variants
from games.errors import (
    GameError,
    GameNotFound,
    IdempotencyKeyReused,
    InvalidInput,
    StaleVersion,
)
from games.forms import (
    AddBotForm,
    GameCreateForm,
    JoinForm,
    bot_choices,
    bot_descriptions,
    game_id_from_invite,
    invite_token,
)
from games.models import Game
from games.presenters import presenter_for
from notifications.services import presence_record

View = Callable[..., HttpResponse]

STALE_MESSAGE = "The game moved on while you were choosing: here is the board as it is now."
LOBBY_LIST_LENGTH = 20
HOME_LIST_LENGTH = 50
HISTORY_WINDOW = 40
"""Events read for a game page: enough to find the viewer's last move in a four-player game."""


class SeeOther(HttpResponseRedirect):
    """The redirect after a POST: the browser follows it with a GET."""

    status_code = 303


# Errors, in one place -------------------------------------------------------------------------


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
        if selectors.game_version_for_viewer(game_id, request.user) is None:
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
        return _regions_response(request, game_id, status=status)
    return SeeOther(reverse("game_detail", args=[game_id]))


# Home and lobby -------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """The home page; a player's games in play come first, those waiting for them on top."""
    my_games = (
        selectors.game_summaries(
            selectors.game_list_for_viewer(request.user, mine=True).filter(
                status__in=[Game.Status.WAITING, Game.Status.ACTIVE]
            )[:HOME_LIST_LENGTH],
            request.user,
        )
        if request.user.is_authenticated
        else []
    )
    rows = table.waiting_for_me_first(table.lobby_rows(my_games))
    return render(request, "home.html", {"my_games": rows})


def lobby(request: HttpRequest) -> HttpResponse:
    viewer = request.user
    mine = (
        table.lobby_rows(
            selectors.game_summaries(selectors.game_list_for_viewer(viewer, mine=True)[:50], viewer)
        )
        if viewer.is_authenticated
        else []
    )
    mine_ids = {game["id"] for game in mine}
    waiting = selectors.game_list_for_viewer(viewer, status=Game.Status.WAITING)[:LOBBY_LIST_LENGTH]
    playing = selectors.game_list_for_viewer(viewer, status=Game.Status.ACTIVE)[:LOBBY_LIST_LENGTH]
    finished = selectors.game_list_for_viewer(viewer, status=Game.Status.FINISHED)[
        :LOBBY_LIST_LENGTH
    ]
    context = {
        # Games waiting for the viewer come first.
        "my_active": table.waiting_for_me_first(
            [game for game in mine if game["status"] in ("waiting", "active")]
        ),
        "my_finished": [game for game in mine if game["status"] not in ("waiting", "active")][:10],
        "open_games": [
            game
            for game in table.lobby_rows(selectors.game_summaries(waiting, viewer))
            if game["id"] not in mine_ids and game["is_public"] and game["open_seats"]
        ],
        "live_games": [
            game
            for game in table.lobby_rows(selectors.game_summaries(playing, viewer))
            if game["id"] not in mine_ids
        ],
        "finished_games": table.lobby_rows(selectors.game_summaries(finished, viewer))[:10],
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@translates_game_errors
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None, creator=request.user)
    if request.method == "POST" and form.is_valid():
        game = services.game_create(
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
    game = selectors.game_get(game_id)
    data = selectors.game_view_for_viewer(game, request.user)
    if data["status"] == Game.Status.WAITING:
        return _waiting_room(request, game, data)
    viewer_seat = data["viewer_seat"]
    if viewer_seat is not None:
        presence_record(user_id=request.user.pk, game_id=game.pk)
    context = {
        "game": data,
        "turn_deadline": game.turn_deadline,
        "time_zone": profile_for(request.user).time_zone
        if request.user.is_authenticated
        else "UTC",
        "is_away": viewer_seat is not None and data["seats"][viewer_seat]["is_away"],
        # A game called off before its start has no table to show, only its result.
        "regions": _regions(request, game, data) if data["state"] else None,
        "table_template": variants.web_for(game.variant).table_template,
        "result": _result(data),
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
    return _regions_response(request, game_id)


@require_safe
def game_version(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's version as an ETag: 304 while it matches If-None-Match.

    Asked every few seconds by every open game page, so it reads one column and nothing else.
    """
    version = selectors.game_version_for_viewer(game_id, request.user)
    if version is None:
        return JsonResponse({"error": "There is no such game."}, status=404)
    if request.user.is_authenticated:
        presence_record(user_id=request.user.pk, game_id=game_id)
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
    game = selectors.game_get(game_id)
    action, expected_version, idempotency_key = variants.web_for(game.variant).action_from_form(
        request.POST
    )
    services.game_take_action(
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
        services.game_resign(game_id=game_id, user=request.user)
        messages.info(request, "You resigned.")
        return SeeOther(reverse("game_detail", args=[game_id]))
    game = selectors.game_get(game_id)
    data = selectors.game_view_for_viewer(game, request.user)
    return render(request, "games/resign.html", {"game": data})


@login_required
@require_POST
@translates_game_errors
def game_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    game = services.game_rematch(game_id=game_id, by_user=request.user)
    return SeeOther(reverse("game_detail", args=[game.pk]))


@require_safe
@translates_game_errors
def game_history(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.game_get(game_id)
    data = selectors.game_view_for_viewer(game, request.user)
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
        return _regions_response(request, game_id)
    return SeeOther(reverse("game_detail", args=[game_id]))


def _regions_response(request: HttpRequest, game_id: int, *, status: int = 200) -> HttpResponse:
    game = selectors.game_get(game_id)
    data = selectors.game_view_for_viewer(game, request.user)
    if data["status"] != Game.Status.ACTIVE:
        # The game started or ended: the page's layout changes, so the browser reloads it.
        return HttpResponseClientRefresh()
    regions = _regions(request, game, data)
    shown = _digests_shown(request)
    changed = {
        name: region for name, region in regions.items() if shown.get(name) != region["digest"]
    }
    partials = variants.web_for(game.variant).partials
    context = {"game": data, "regions": changed, "oob": True, "partials": partials}
    response = render(request, "games/partials/regions.html", context, status=status)
    # The page drops an answer older than what it shows (answers can arrive in any order), and
    # compares every region with these digests: one changed by another answer in the meantime
    # makes it ask again.
    response["X-Game-Version"] = str(data["version"])
    response["X-Region-Digests"] = ",".join(
        f"{name}={region['digest']}" for name, region in regions.items()
    )
    add_never_cache_headers(response)
    return response


def _digests_shown(request: HttpRequest) -> dict[str, str]:
    """The region digests the browser says it shows (header ``X-Region-Digests``)."""
    header = request.headers.get("X-Region-Digests", "")
    pairs = (item.partition("=") for item in header.split(",") if "=" in item)
    return {name.strip(): value.strip() for name, _, value in pairs}


def _regions(request: HttpRequest, game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    # The whole log is replayed so that the words can tell what moves brought about by
    # themselves (a noble's visit); the engine folds a game's moves in a few milliseconds.
    events = timeline.game_timeline_for_viewer(game, request.user).events[-HISTORY_WINDOW:]
    web = variants.web_for(game.variant)
    memory_key = f"game-{game.pk}-memory"
    memory, seen_cards = web.remember_turn(request.session.get(memory_key), data)
    if memory is not None and request.session.get(memory_key) != memory.to_json():
        request.session[memory_key] = memory.to_json()
    notices = [
        {"level": message.level_tag, "text": str(message)}
        for message in messages.get_messages(request)
    ]
    table_of = presenter_for(game.variant).table
    return table_of(data, events, seen_cards=seen_cards, notices=notices)


def _result(data: Mapping[str, Any]) -> dict[str, Any] | None:
    if data["status"] not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return None
    result = describe.result_for_page(data["result"], table.seat_names(data))
    if data["state"] is not None:  # the score breakdown: points from nobles
        players = data["state"]["players"]
        for row in result["rows"]:
            nobles = players[row["seat"]].get("nobles", ())  # games without nobles score 0
            row["noble_points"] = sum(noble["points"] for noble in nobles)
            row["card_points"] = row["points"] - row["noble_points"]
    return result


# Before the start: the waiting room, joining, bots, invites -----------------------------------


def _waiting_room(request: HttpRequest, game: Game, data: Mapping[str, Any]) -> HttpResponse:
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
    services.game_take_seat(game_id=game_id, user=request.user, seat=form.cleaned_data["seat"])
    return SeeOther(reverse("game_detail", args=[game_id]))


@login_required
@require_POST
@translates_game_errors
@for_visible_games
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    services.game_leave_seat(game_id=game_id, user=request.user)
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
    services.game_add_bot(
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
    services.game_abort(game_id=game_id, by_user=request.user, reason="called off by its creator")
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
        services.game_take_seat(game_id=game_id, user=request.user, invited=True)
        return SeeOther(reverse("game_detail", args=[game_id]))
    game = selectors.game_get(game_id)
    summary = table.lobby_rows(selectors.game_summaries([game], request.user))[0]
    return render(request, "games/invite.html", {"game": summary})
