"""A player seen at a game: the pages, the live-update stream and the API say so here.

Whoever keeps presence listens (the notifications app, which holds back a turn mail while its
player is at the game); ``games`` itself keeps none, so its pages need not import the app that
reads them. A signal, not a call, for that reason: the listener lives above this layer.
"""

from __future__ import annotations

from django.dispatch import Signal

player_seen = Signal()
"""Sent with ``user_id``, ``game_id``, ``seconds`` (how long the sighting lasts; ``None`` for
an open page's default) and ``throttled`` (whether a listener may skip a sighting that repeats
one made a moment ago: yes for page polls and API calls, no for the stream's spaced heartbeat)."""


def note_player_seen(
    *, user_id: int, game_id: int, seconds: float | None = None, throttled: bool = True
) -> None:
    """Tell the listeners that ``user_id`` is at game ``game_id`` for ``seconds``."""
    player_seen.send(
        sender=None, user_id=user_id, game_id=game_id, seconds=seconds, throttled=throttled
    )
