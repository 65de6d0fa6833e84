"""Where links in mail lead: a game (signed for one player) and the unsubscribe page.

Following a game link (GET) changes nothing: a signed-in player lands on the game, anyone else
goes through the sign-in page and back (the link never signs anyone in by itself). A bad,
expired or someone else's link gets a page saying so. The unsubscribe page changes the setting
only on POST: its one button, or a mail client's RFC 8058 one-click POST, which carries no
CSRF token, so the signed token in the URL is what authorises it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from accounts import services as account_services
from accounts.models import Profile
from games.errors import GameNotFound
from games.reads import game_view, loading
from games.variants import describe_event
from games.variants.table_common import seat_names
from notifications import links

SINCE_WINDOW = 20
"""Events told on the game page after an old link: the latest ones, when more happened."""


def _link_refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "notifications/link_refused.html", {"message": message}, status=status)


@require_safe
def game_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        link = links.read_game_link(token)
    except links.ExpiredLink:
        return _link_refused(
            request,
            "This link has expired: links in mail last seven days. Your games are in the lobby.",
            410,
        )
    except links.BadLink:
        return _link_refused(request, "This link is not valid: it may have been cut short.", 400)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.user.pk != link.user_id:
        return _link_refused(
            request,
            f"This link was sent to another player; you are signed in as "
            f"{request.user.get_username()}.",
            403,
        )
    try:
        game = loading.game_get(link.game_id)
        data = game_view.game_view_for_viewer(game, request.user)
    except GameNotFound:
        return _link_refused(request, "That game no longer exists.", 404)
    if game.version > link.version:
        names = seat_names(data)
        events = game_view.game_events_for_viewer(
            game, request.user, after_seq=max(link.version, game.version - SINCE_WINDOW)
        )
        told = " ".join(describe_event(event, names, variant=game.variant) for event in events)
        # A message shown once on the next page (kept in a cookie): the game is not touched.
        messages.info(request, f"Since that mail: {told}")
    return HttpResponseRedirect(reverse("game_detail", args=[link.game_id]))


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user_id = links.read_unsubscribe(token)
    except links.BadLink:
        return _link_refused(request, "This unsubscribe link is not valid.", 400)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return _link_refused(request, "This account no longer exists.", 404)
    if request.method == "POST":
        account_services.profile_update(user, notify=Profile.Notify.NONE)
        return render(request, "notifications/unsubscribed.html", {"done": True})
    return render(request, "notifications/unsubscribed.html", {"done": False})
