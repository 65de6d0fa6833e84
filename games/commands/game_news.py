"""News of a game beside its versions: something its open pages show changed, though no event
was appended (an analysis's progress, docs/decisions/0137).

A projection above ``games`` (the analysis app) announces here; the live-update stream
(``games.web.live``) listens and pushes each piece of news to the game's open pages, on the same
stream and the same Redis channel as its versions. A signal, not a call, for the reason
``games.commands.presence`` is one: the pages live above this layer, the announcer beside them,
and neither may import the other.

What travels is a name and a short text: a page that cares fetches what it shows through its
own views, as it does for a version, since what a viewer may see is theirs to ask.
"""

from __future__ import annotations

import re

from django.dispatch import Signal

game_news = Signal()
"""Sent with ``game_id``, ``kind`` (the stream's event name, ``NEWS_KIND``) and ``data`` (one
short line of text for the page, ``NEWS_DATA``)."""

NEWS_KIND = re.compile(r"[a-z][a-z-]{0,31}")
RESERVED_KINDS = frozenset({"version", "listening"})
"""The stream's own events (``games.web.live_views``): no news may pass for one of them."""
NEWS_DATA = re.compile(r"[\x20-\x7e]{1,100}")
"""Printable ASCII on one line: an event's ``data:`` field cannot carry a line break, and the
Redis message (``<game>:<kind>:<data>``) stays small."""


def announce_game_news(*, game_id: int, kind: str, data: str) -> None:
    """Tell every open page of game ``game_id`` about ``kind`` (``data`` says what changed).

    Call it once the change is committed: a page that hears the news fetches at once. Like a
    version's publishing it never fails its caller over the transport (``games.web.live``);
    a malformed kind or text is a programming error and raises ``ValueError``.
    """
    if not is_news(kind, data):
        raise ValueError(f"{kind!r}: {data!r} is not a game's news (see NEWS_KIND, NEWS_DATA)")
    game_news.send(sender=None, game_id=game_id, kind=kind, data=data)


def is_news(kind: str, data: str) -> bool:
    """Whether ``kind`` and ``data`` make news a stream may pass on as they are."""
    return (
        NEWS_KIND.fullmatch(kind) is not None
        and kind not in RESERVED_KINDS
        and NEWS_DATA.fullmatch(data) is not None
    )
