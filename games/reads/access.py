"""Who may see which games, and where a viewer sits: the one statement of those rules.

Public games are open to everyone; private ones to their creator, their players and staff.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q

from games.models import Game, Seat

Viewer = AbstractBaseUser | AnonymousUser | None
"""Whoever reads: a user, a guest, or nobody in particular (a mail, a task)."""


def seat_for_viewer(game: Game, viewer: Viewer) -> int | None:
    """The seat index of ``viewer`` in ``game``, or None for a spectator."""
    if viewer is None or not viewer.is_authenticated:
        return None
    if getattr(game, "viewer_seat_of", None) == viewer.pk:
        return game.viewer_seat_index  # type: ignore[attr-defined, no-any-return]
    seat = Seat.objects.filter(game=game, user_id=viewer.pk).values_list("index", flat=True)
    return seat.first()


def can_view(game: Game, viewer: Viewer) -> bool:
    """Public games are open to everyone; private ones to their creator, players and staff."""
    return game.is_public or Game.objects.filter(visible_to(viewer), pk=game.pk).exists()


def visible_to(viewer: Viewer) -> Q:
    """The games ``viewer`` may see, as a filter: the one statement of that rule."""
    if viewer is None or not viewer.is_authenticated:
        return Q(is_public=True)
    if getattr(viewer, "is_staff", False):
        return Q()
    return Q(is_public=True) | involves(viewer)


def involves(viewer: AbstractBaseUser) -> Q:
    """Games ``viewer`` created or has a seat in."""
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=viewer.pk))
    return Q(created_by_id=viewer.pk) | Q(seated)


def game_version_for_viewer(game_id: int, viewer: Viewer) -> int | None:
    """The game's version if ``viewer`` may see the game, else None: one small query.

    What a page polls every two seconds: it must cost almost nothing when nothing changed.
    """
    games = Game.objects.filter(visible_to(viewer), pk=game_id)
    # Unordered and sliced: no ORDER BY, one row, one column.
    return next(iter(games.order_by().values_list("version", flat=True)[:1]), None)


def is_seated(game_id: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` plays in the game (has a seat in it)."""
    if viewer is None or not viewer.is_authenticated:
        return False
    return Seat.objects.filter(game_id=game_id, user_id=viewer.pk).exists()
