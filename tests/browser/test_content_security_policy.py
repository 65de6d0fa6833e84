"""Every kind of page runs under the Content-Security-Policy without a single violation (the
``new_context`` fixture fails the test on any), scripts and all."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from tests.browser.conftest import log_in
from tests.web.tables import create_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_site_s_pages_load_without_a_policy_violation(
    asgi_server: str, new_context: Callable[..., BrowserContext], make_player: Callable[[str], User]
) -> None:
    alice = make_player("alice")
    playing = create_game(UserSeat(alice), BotSeat("greedy"), creator=alice)
    waiting = create_game(UserSeat(alice), OpenSeat(), creator=alice)
    guest = new_context().new_page()
    for path in ("/", "/lobby/", "/accounts/login/", "/accounts/signup/", "/admin/login/"):
        response = guest.goto(f"{asgi_server}{path}")
        assert response is not None
        assert "unsafe-inline" not in response.headers["content-security-policy"]
    guest.goto(f"{asgi_server}/api/docs/")
    expect(guest.locator(".swagger-ui .info")).to_be_visible(timeout=15_000)

    page = new_context().new_page()
    log_in(page, asgi_server, "alice")
    for path in (
        f"/games/{playing.pk}/",
        f"/games/{playing.pk}/history/",
        f"/games/{waiting.pk}/",
        "/games/new/",
        "/accounts/profile/",
    ):
        page.goto(f"{asgi_server}{path}")
    page.goto(f"{asgi_server}/games/{playing.pk}/")
    page.locator("#region-board .card.has-actions").first.click()
    expect(page.locator(".card.is-open .card-actions")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(".card.is-open")).to_have_count(0)
