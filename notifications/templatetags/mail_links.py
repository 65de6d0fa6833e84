"""Template filters about links in mail, for pages outside this app (the sign-in page)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import template
from django.urls import Resolver404, resolve

register = template.Library()


@register.filter
def is_mail_game_link(path: object) -> bool:
    """Whether ``path`` (a sign-in page's ``next``) is a game link from a mail: only its
    route is looked at, the token is checked where the link leads, after sign-in."""
    if not isinstance(path, str) or not path.startswith("/"):
        return False
    try:
        return resolve(urlsplit(path).path).url_name == "mail_game_link"
    except Resolver404:
        return False
