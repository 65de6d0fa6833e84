"""The regions of a game page, and the htmx answer that swaps the ones that changed.

A game page is cut into regions (the board, the players, the history in words, ...), each with
a digest of its content. After a move, or when the page asks, only the regions whose digest
differs from the one the browser says it shows are sent, as out-of-band swaps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django_htmx.http import HttpResponseClientRefresh

from accounts.selectors import profile_for
from games import variants
from games.models import Game
from games.reads import game_view, loading, timeline
from games.variants.table_common import digest, seat_names
from games.vocabulary import Status

HISTORY_WINDOW = 40
"""Events read for a game page: enough to find the viewer's last move in a four-player game."""


def regions_response(request: HttpRequest, game_id: int, *, status: int = 200) -> HttpResponse:
    game = loading.game_get(game_id)
    data = game_view.game_view_for_viewer(game, request.user)
    if data["status"] != Status.ACTIVE:
        # The game started or ended: the page's layout changes, so the browser reloads it.
        return HttpResponseClientRefresh()
    regions = page_regions(request, game, data)
    shown = _digests_shown(request)
    changed = {
        name: region for name, region in regions.items() if shown.get(name) != region["digest"]
    }
    partials = variants.game_for(game.variant).partials
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


def page_regions(request: HttpRequest, game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    # The whole log is replayed so that the words can tell what moves brought about by
    # themselves (a noble's visit); the engine folds a game's moves in a few milliseconds.
    events = timeline.game_timeline_for_viewer(game, request.user).events[-HISTORY_WINDOW:]
    package = variants.game_for(game.variant)
    memory_key = f"game-{game.pk}-memory"
    memory, seen_cards = package.remember_turn(request.session.get(memory_key), data)
    if memory is not None and request.session.get(memory_key) != memory.to_json():
        request.session[memory_key] = memory.to_json()
    notices = [
        {"level": message.level_tag, "text": str(message)}
        for message in messages.get_messages(request)
    ]
    regions = package.table(data, events, seen_cards=seen_cards, notices=notices)
    regions["status"] = _with_deadline(regions["status"], request, game, data)
    return regions


def _with_deadline(
    status: dict[str, Any], request: HttpRequest, game: Game, data: Mapping[str, Any]
) -> dict[str, Any]:
    """The status region with the turn's deadline, in the viewer's time zone: the line changes
    with the headline, in the same push. None without a deadline, and for a viewer whose seat
    the bot plays (the page offers the seat back instead)."""
    viewer_seat = data["viewer_seat"]
    is_away = viewer_seat is not None and data["seats"][viewer_seat]["is_away"]
    deadline = None
    if game.turn_deadline and data["acting_seat"] is not None and not is_away:
        deadline = {
            "at": game.turn_deadline,
            "by": seat_names(data)[data["acting_seat"]],
            "time_zone": profile_for(request.user).time_zone
            if request.user.is_authenticated
            else "UTC",
        }
    content = {name: value for name, value in status.items() if name != "digest"}
    content["deadline"] = deadline
    return {**content, "digest": digest(content)}
