"""Signed links in mail: to a game (bound to user, game and version, expiring) and to unsubscribe.

Nothing is stored: Django's signing (HMAC with ``SECRET_KEY``) makes a link that cannot be
altered or forged, and a timestamp in it lets it expire. Following a link never logs anyone in
and never changes a game: the views only read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

GAME_LINK_SALT = "notifications.game-link"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


class BadLink(Exception):
    """A link that was altered, forged or cut short."""


class ExpiredLink(BadLink):
    """A genuine link older than ``MAIL_LINK_MAX_AGE``."""


@dataclass(frozen=True)
class GameLink:
    user_id: int
    game_id: int
    version: int


def game_link_token(*, user_id: int, game_id: int, version: int) -> str:
    return signing.dumps({"u": user_id, "g": game_id, "v": version}, salt=GAME_LINK_SALT)


def game_link_url(*, user_id: int, game_id: int, version: int) -> str:
    token = game_link_token(user_id=user_id, game_id=game_id, version=version)
    return settings.SITE_URL + reverse("mail_game_link", args=[token])


def read_game_link(token: str) -> GameLink:
    try:
        data = signing.loads(token, salt=GAME_LINK_SALT, max_age=settings.MAIL_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise ExpiredLink from None
    except signing.BadSignature:
        raise BadLink from None
    try:
        return GameLink(user_id=int(data["u"]), game_id=int(data["g"]), version=int(data["v"]))
    except (KeyError, TypeError, ValueError):
        raise BadLink from None


def unsubscribe_url(user_id: int) -> str:
    """A link that stops all mail to ``user_id``: it does not expire (RFC 8058 clients keep it)."""
    token = signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT)
    return settings.SITE_URL + reverse("mail_unsubscribe", args=[token])


def read_unsubscribe(token: str) -> int:
    try:
        return int(signing.loads(token, salt=UNSUBSCRIBE_SALT)["u"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadLink from None
