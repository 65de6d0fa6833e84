"""The push endpoint: a Server-Sent Events stream of a game's versions (``games.web.live``).

Served only by the ASGI server (uvicorn, see README): under WSGI a stream would hold a worker
thread per open page, so there the endpoint answers 503 and the page keeps to its fallback poll.
The view itself is synchronous (a quick check of who may see the game); the stream it returns is
asynchronous, and the ASGI handler runs it on the event loop, where an idle page costs a small
task, not a thread.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.http import require_safe

from games.commands.presence import note_player_seen
from games.reads import access
from games.web import stream_limits
from games.web.live import News, hub
from operations import metrics

KEEPALIVE_SECONDS = 20.0
"""A comment line this often (or at each presence heartbeat, if sooner) keeps proxies from
closing a quiet stream and finds dead peers."""
RECONNECT_MS = 1000
UNAVAILABLE_RETRY_MS = 15_000
LISTENING = b"event: listening\ndata: push\n\n"
"""Sent with the first line, once the stream is subscribed: from then on it hears every version
and every piece of news. A page that shows news (which, unlike a version, the stream cannot
catch up on) fetches it on this event, so nothing announced while it opened is missed; a browser
fires its own "open" as soon as the headers come, which may be before."""


@require_safe
def game_events(request: HttpRequest, game_id: int) -> HttpResponse:
    """``text/event-stream``: one ``version`` event per new version of the game, and one event
    named by its kind per piece of news of the game (``games.commands.game_news``).

    A page that (re)connects says which version it shows (``Last-Event-ID``, which browsers
    resend on reconnect, or ``?version=``); if the game is past it, the first event says so at
    once, so nothing is missed while the page was away. News keeps no number: the stream says
    ``listening`` once it hears every push, and a page that shows news fetches it then.
    """
    if not isinstance(request, ASGIRequest):
        return _unavailable("Push needs the ASGI server; poll /version instead.")
    shown = _version_shown(request)
    user = request.user
    is_visible = access.game_version_for_viewer(game_id, user) is not None
    player_id = user.pk if is_visible and access.is_seated(game_id, user) else None
    _release_connection()  # the stream may stay open for hours: hold no connection meanwhile
    if not is_visible:
        return JsonResponse({"error": "There is no such game."}, status=404)
    try:
        lease = stream_limits.stream_lease_take(request)
    except stream_limits.TooManyStreams as refusal:
        return _refused(str(refusal), status=429)
    response = StreamingHttpResponse(
        stream_limits.stream_held_by(
            lease, _stream(game_id, user, since=shown, player_id=player_id)
        ),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through as they come
    return response


async def _stream(
    game_id: int, user: Any, *, since: int, player_id: int | None
) -> AsyncIterator[bytes]:
    """Every version after ``since`` (what the page shows). The subscription is taken inside
    the stream, so it ends with it, and before the version is read, so a move committed in
    between is not lost; a page that missed versions hears the newest at once.

    A player's stream is also their presence in the game: it marks them present when it opens
    and again every ``heartbeat`` seconds while it stays open, busy or quiet, so no turn mail
    goes to a page that is open, in front or in a background tab (``notifications.presence``).
    """
    subscriber = await hub.subscribe(game_id, since)
    heartbeat = _heartbeat_seconds()
    metrics.LIVE_STREAMS_OPEN.inc()
    try:
        if not hub.is_available:  # Redis did not answer: the page polls, and retries later
            yield f"retry: {UNAVAILABLE_RETRY_MS}\n\n".encode()
            return
        yield f"retry: {RECONNECT_MS}\n\n".encode() + LISTENING
        current = await _version_for(game_id, user)
        subscriber.offer(current or 0)
        marked = await _mark_present(game_id, player_id)
        async for update in subscriber.updates(since, heartbeat):
            if update is None or time.monotonic() - marked >= heartbeat:
                marked = await _mark_present(game_id, player_id)
            if update is None:
                yield b": keepalive\n\n"
            elif isinstance(update, News):
                yield _news_event(update)
            else:
                yield _event(update)
    finally:
        hub.unsubscribe(subscriber)
        metrics.LIVE_STREAMS_OPEN.dec()


def _heartbeat_seconds() -> float:
    """Three heartbeats to a presence mark's life: one or two may come late."""
    return min(KEEPALIVE_SECONDS, settings.PRESENCE_SECONDS / 3)


async def _mark_present(game_id: int, player_id: int | None) -> float:
    """Mark the stream's player present (no one for a spectator); when it was done."""
    if player_id is not None:
        await sync_to_async(_write_presence, thread_sensitive=False)(game_id, player_id)
    return time.monotonic()


def _write_presence(game_id: int, player_id: int) -> None:
    try:
        note_player_seen(
            user_id=player_id,
            game_id=game_id,
            seconds=settings.PRESENCE_SECONDS,
            throttled=False,
        )
    finally:
        _release_connection()


async def _version_for(game_id: int, user: Any) -> int | None:
    return await sync_to_async(_read_version, thread_sensitive=False)(game_id, user)


def _read_version(game_id: int, user: Any) -> int | None:
    try:
        return access.game_version_for_viewer(game_id, user)
    finally:
        _release_connection()


def _release_connection() -> None:
    """Close this thread's database connection, unless a transaction holds it (tests)."""
    if not connection.in_atomic_block:
        connection.close()


def _event(version: int) -> bytes:
    return f"id: {version}\nevent: version\ndata: {version}\n\n".encode()


def _news_event(news: News) -> bytes:
    """No ``id``: a reconnecting page's ``Last-Event-ID`` stays the version it shows."""
    return f"event: {news.kind}\ndata: {news.data}\n\n".encode()


def _version_shown(request: HttpRequest) -> int:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("version", "")
    return int(raw) if raw.isdigit() and len(raw) < 12 else 0


def _unavailable(message: str) -> HttpResponse:
    return _refused(message, status=503)


def _refused(message: str, *, status: int) -> HttpResponse:
    """A stream not opened: the page keeps to its fallback poll and may try again later."""
    response = JsonResponse({"error": message}, status=status)
    response["Retry-After"] = "15"
    return response
