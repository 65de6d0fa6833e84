"""HTML pages of games' history: lists, profiles, the replay viewer, export, import and fork.

Thin like ``games.web.views``: parse, call one selector or service, render; refusals go through
``translates_game_errors``. A step that does not exist is a 404 naming the game's last step.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import InvalidPage, Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from games.commands import history as history_services
from games.errors import GameNotFound, ImportRejected, InvalidInput, LimitReached
from games.models import Game
from games.notation import document as notation
from games.notation import game_files
from games.reads import exports, game_lists, loading
from games.reads.timeline import (
    WORDS_CACHE_SECONDS,
    Timeline,
    check_step,
    game_timeline_for_viewer,
    replay_data,
    replay_moves,
    table_data_for_step,
)
from games.variants import game_for
from games.vocabulary import Status
from games.web.history_forms import ForkForm, HistoryFilterForm, ImportForm
from games.web.view_errors import SeeOther, translates_game_errors
from splendor_site.request_limits import allows_body_up_to

UPLOAD_FORM_OVERHEAD_BYTES = 64 * 1024
"""Room for the upload form's other fields and its multipart boundaries beside the file."""

PAGE_SIZE = 20


class PageNotFound(GameNotFound):
    """A page number past the end of a list."""


def _page(request: HttpRequest, games: QuerySet[Game]) -> Page:
    try:
        return Paginator(games, PAGE_SIZE).page(request.GET.get("page") or 1)
    except InvalidPage:
        raise PageNotFound("There is no such page of games.") from None


def _list_page(
    request: HttpRequest,
    template: str,
    games: Any,
    side: Any,
    *,
    rows_of: Any = game_lists.history_rows,
    **context: Any,
) -> HttpResponse:
    """A page of ``games`` as rows seen from ``side``'s seat (None: nobody's)."""
    form = context.pop("form")
    page = _page(request, games)
    query = request.GET.copy()
    query.pop("page", None)
    context.update(
        form=form,
        page=page,
        rows=rows_of(page.object_list, side),
        query=query.urlencode(),
    )
    return render(request, template, context)


def _filters(request: HttpRequest) -> HistoryFilterForm:
    form = HistoryFilterForm(request.GET)
    if not form.is_valid():
        raise _BadFilters(form)
    return form


class _BadFilters(Exception):
    def __init__(self, form: HistoryFilterForm) -> None:
        super().__init__(form.error_text())
        self.form = form


def _bad_filters(request: HttpRequest, error: _BadFilters, template: str) -> HttpResponse:
    context = {"form": error.form, "page": None, "rows": [], "query": ""}
    return render(request, template, context, status=400)


@login_required
@require_safe
@translates_game_errors
def my_games(request: HttpRequest) -> HttpResponse:
    template = "games/history/my_games.html"
    try:
        form = _filters(request)
    except _BadFilters as error:
        return _bad_filters(request, error, template)
    waiting_for_me = _is_waiting_for_me(request)
    games = game_lists.my_games(request.user, form.filters(), waiting_for_me=waiting_for_me)
    return _list_page(
        request,
        template,
        games,
        request.user,
        form=form,
        rows_of=game_lists.my_game_rows,
        waiting_for_me=waiting_for_me,
    )


WAITING_FOR_ME = "me"
"""``?waiting=me``: My games keeps only the games waiting for the viewer's move."""


def _is_waiting_for_me(request: HttpRequest) -> bool:
    wanted = request.GET.get("waiting", "")
    if wanted not in ("", WAITING_FOR_ME):
        raise InvalidInput(f'"waiting" can only be "{WAITING_FOR_ME}" (games waiting for you).')
    return wanted == WAITING_FOR_ME


@require_safe
@translates_game_errors
def finished_games(request: HttpRequest) -> HttpResponse:
    template = "games/history/finished_games.html"
    try:
        form = _filters(request)
    except _BadFilters as error:
        return _bad_filters(request, error, template)
    games = game_lists.finished_public_games(form.filters())
    return _list_page(request, template, games, None, form=form)


@require_safe
@translates_game_errors
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    template = "games/history/player.html"
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        raise GameNotFound(f"There is no player {username}.")
    try:
        form = _filters(request)
    except _BadFilters as error:
        return _bad_filters(request, error, template)
    games = game_lists.finished_public_games(form.filters(), player=player)
    return _list_page(request, template, games, player, form=form, player=player)


# The replay viewer ----------------------------------------------------------------------------


def _step(request: HttpRequest, game_id: int) -> int:
    step = _step_number(request.GET.get("step", "0"))
    if step is None:
        raise GameNotFound(f"Game {game_id} has no such step: a step is a whole number.")
    return step


def _step_number(raw: str) -> int | None:
    """The step a query asks for, or None when it is not a whole number."""
    return int(raw) if raw.isdigit() and len(raw) <= 9 else None


@require_safe
@translates_game_errors
# htmx asks for the stage alone at the same address as the whole page: without Vary, the
# browser's Back to a step from another page showed the cached stage as the page itself.
@vary_on_headers("HX-Request")
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = loading.game_get(game_id)
    timeline = game_timeline_for_viewer(game, request.user)
    step = _step_number(request.GET.get("step", "0"))
    check_step(timeline, step)
    assert step is not None  # check_step refused every other value
    data = replay_data(timeline, step)
    presenter = game_for(game.variant)
    table_data = table_data_for_step(data)
    # Regions carry the version they were drawn at; a replayed board's is its step.
    shown = {**data, "version": table_data["version"]}
    context = {
        "game": shown,
        "board": _board_html(timeline, shown, lambda: presenter.table(table_data, [])),
        "can_fork": _can_fork(request, game, data),
    }
    if request.htmx:
        return render(request, "games/replay/stage.html", context)
    context.update(
        moves=_move_list_html(timeline, step),
        revealed=timeline.revealed(),
        commitment=game.commitment,
        imported_note=notation.IMPORTED_NOTE if game.is_imported else None,
    )
    return render(request, "games/replay/page.html", context)


def _board_html(timeline: Timeline, shown: dict[str, Any], regions: Any) -> str:
    """The board at one step, drawn once per step of a game that is over and kept in the cache:
    then every viewer sees the same board (their seat marked), and it never changes."""
    context = {"game": shown, "board_template": game_for(shown["variant"]).board_template}
    if not timeline.reveals_all:
        return render_to_string("games/replay/board.html", {**context, "regions": regions()})
    key = f"{timeline.log_key}:board:{shown['step']}:{timeline.viewer_seat}"
    html: str | None = cache.get(key)
    if html is None:
        html = render_to_string("games/replay/board.html", {**context, "regions": regions()})
        cache.set(key, html, WORDS_CACHE_SECONDS)
    return html


_MOVE_ITEM = (
    '<li><a href="?step={0}" hx-get="?step={0}" hx-target="#replay-stage" hx-swap="outerHTML"'
    ' hx-push-url="true" data-step="{0}"{1}>{2}</a></li>'
)


def _move_list_html(timeline: Timeline, step: int) -> str:
    """The move list's items, the step shown marked. A hundred items through the template
    engine took longer than all the rest of the page, so they are formatted here, once per
    version of the game (kept in the cache beside its words), and only the mark moves."""
    key = f"{timeline.log_key}:moves"
    items: list[str] | None = cache.get(key)
    if items is None:
        moves = replay_moves(timeline)
        items = [format_html(_MOVE_ITEM, move["step"], "", move["text"]) for move in moves]
        cache.set(key, items, WORDS_CACHE_SECONDS)
    items = list(items)
    mark = mark_safe(' aria-current="step"')
    items[step] = format_html(_MOVE_ITEM, step, mark, timeline.step_event(step)["text"])
    return mark_safe("\n".join(items))


def _can_fork(request: HttpRequest, game: Game, data: dict[str, Any]) -> bool:
    """A signed-in viewer may fork a step with a move left to play: any step of a finished
    game, a running game's steps only as a spectator."""
    if not request.user.is_authenticated or data["acting_seat"] is None:
        return False
    if game.status == Status.FINISHED:
        return True
    return game.status == Status.ACTIVE and data["viewer_seat"] is None


# Export and import ----------------------------------------------------------------------------


@require_safe
@translates_game_errors
def game_export_json(request: HttpRequest, game_id: int) -> HttpResponse:
    game = exports.exportable_game(game_id, request.user)
    document = exports.game_document_for_viewer(game, request.user)
    response = JsonResponse(document, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="splendor-game-{game_id}.json"'
    return response


@require_safe
@translates_game_errors
def game_export_text(request: HttpRequest, game_id: int) -> HttpResponse:
    game = exports.exportable_game(game_id, request.user)
    text = exports.game_text_for_viewer(game, request.user)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="splendor-game-{game_id}.txt"'
    return response


@allows_body_up_to(game_files.MAX_FILE_BYTES + UPLOAD_FORM_OVERHEAD_BYTES)
@login_required
@require_http_methods(["GET", "POST"])
def game_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                game = history_services.game_import(
                    document=form.cleaned_data["file"],
                    uploaded_by=request.user,
                    is_public=form.cleaned_data["is_public"],
                )
            except ImportRejected as error:
                form.add_error("file", error.message)
            except LimitReached as error:
                form.add_error(None, error.message)
                status = error.http_status
            else:
                messages.info(request, "The game was imported: here it is, step by step.")
                return SeeOther(reverse("game_replay", args=[game.pk]))
        return render(request, "games/history/import.html", {"form": form}, status=status)
    return render(request, "games/history/import.html", {"form": form})


# Fork from here -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@translates_game_errors
def game_fork(request: HttpRequest, game_id: int) -> HttpResponse:
    game = loading.game_get(game_id)
    step = _step(request, game_id) if request.method == "GET" else _posted_step(request, game_id)
    position = history_services.fork_position_for_viewer(game, request.user, step)
    form = ForkForm(request.POST or None, seat_count=len(position["players"]))
    if request.method == "POST" and form.is_valid():
        fork = history_services.game_fork(
            game_id=game_id,
            step=step,
            user=request.user,
            seats=form.seats(request.user),
            is_public=form.cleaned_data["is_public"],
        )
        return SeeOther(reverse("game_detail", args=[fork.pk]))
    context = {"game": {"id": game_id}, "step": step, "form": form}
    return render(request, "games/history/fork.html", context, status=400 if form.is_bound else 200)


def _posted_step(request: HttpRequest, game_id: int) -> int:
    raw = request.POST.get("step", "")
    if not raw.isdigit() or len(raw) > 9:
        raise GameNotFound(f"There is no game {game_id}.")
    return int(raw)
