"""Mail as players receive it: a plain-text and an HTML part from templates, and the headers
that let a mail client unsubscribe in one click (RFC 2369 ``List-Unsubscribe`` with RFC 8058's
``List-Unsubscribe-Post``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

from notifications import links

TEMPLATES = "notifications/mail"


def build_mail(
    *, to: str, user_id: int, subject: str, template: str, context: Mapping[str, Any]
) -> EmailMultiAlternatives:
    unsubscribe = links.unsubscribe_url(user_id)
    context = {**context, "unsubscribe_url": unsubscribe, "site_url": settings.SITE_URL}
    text = render_to_string(f"{TEMPLATES}/{template}.txt", context)
    html = render_to_string(f"{TEMPLATES}/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[to],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def turn_subject(context: Mapping[str, Any]) -> str:
    against = ", ".join(context["opponents"])
    return f"Your move in game #{context['game_id']} against {against}"


def reminder_subject(context: Mapping[str, Any]) -> str:
    return f"Reminder: your move in game #{context['game_id']} is due {context['due']}"


def digest_subject(games: list[Any]) -> str:
    count = len(games)
    return f"{count} game{'s' if count != 1 else ''} waiting for your move"
