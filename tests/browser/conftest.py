"""Fixtures for the browser tests: the system Chromium, headless, driven by Playwright.

The browser is Debian's ``chromium`` (or ``PLAYWRIGHT_CHROMIUM_EXECUTABLE``); Playwright never
downloads one. Tests run against pytest-django's ``live_server`` with a transactional database,
and bots move in-process so that a game against a bot plays through in the request.
Screenshots of the main pages go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PASSWORD = "a-long-enough-passphrase"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One Chromium for the browser tests, closed when they are done.

    Playwright's sync API keeps an event loop running on the test's thread while it is open,
    and the tests still use the ORM between browser steps, which Django refuses as "async
    unsafe" unless told otherwise. Package scope keeps both the loop and that permission to
    the browser tests alone.
    """
    executable = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", "/usr/bin/chromium")
    allowed_before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            yield chromium
            chromium.close()
    finally:
        if allowed_before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allowed_before


@pytest.fixture(autouse=True)
def browser_test_settings(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Open as many browser contexts (separate cookie jars: separate people) as a test needs."""
    contexts: list[BrowserContext] = []

    def open_context(**options: object) -> BrowserContext:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context: Callable[..., BrowserContext]) -> Page:
    return new_context().new_page()


@pytest.fixture
def make_player(transactional_db: None) -> Callable[[str], User]:
    def make(username: str) -> User:
        return get_user_model().objects.create_user(  # type: ignore[no-any-return]
            username=username, password=PASSWORD, email=f"{username}@example.com"
        )

    return make


def log_in(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{base_url}/lobby/")


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
