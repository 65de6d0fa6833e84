"""Fixtures for the browser tests: the system Chromium, headless, driven by Playwright.

The browser is Debian's ``chromium`` (or ``PLAYWRIGHT_CHROMIUM_EXECUTABLE``); Playwright never
downloads one. Tests run against pytest-django's ``live_server`` with a transactional database,
and bots move in-process so that a game against a bot plays through in the request.
Screenshots of the main pages go to ``artifacts/screenshots/``.

``asgi_server`` serves the site with uvicorn instead, as ``./dev start`` does: server push works
only there (under ``live_server``, a WSGI server, pages fall back to polling).

Every page opened through ``new_context`` fails its test on any Content-Security-Policy
violation reported in the browser's console.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connection
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

from splendor_site.asgi import application

# A real Celery worker beside the browser, for a page that waits on one (an analysis's progress
# pushed from the worker): the integration tests' fixtures, as they are.
from tests.integration.conftest import celery_broker, start_worker, worker_redis_url  # noqa: F401

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
    """Open as many browser contexts (separate cookie jars: separate people) as a test needs.

    The test fails if any page reports a Content-Security-Policy violation.
    """
    contexts: list[BrowserContext] = []
    violations: list[str] = []

    def watch_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            violations.append(message.text)

    def open_context(**options: object) -> BrowserContext:
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        context.on("console", watch_console)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"


@pytest.fixture
def page(new_context: Callable[..., BrowserContext]) -> Page:
    return new_context().new_page()


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[str]:
    """The site served by uvicorn (the ASGI server of ``./dev start``) on a free port; its URL.

    Runs in a thread of the test process, so it uses the test database. Database connections
    there close after each request, so none outlives the test database.
    """
    saved_max_age = connection.settings_dict.get("CONN_MAX_AGE", 0)
    connection.settings_dict["CONN_MAX_AGE"] = 0
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),
        host="127.0.0.1",
        port=0,
        lifespan="off",
        log_level="warning",
        # Open event streams would otherwise hold the shutdown until the browser goes.
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        connection.settings_dict["CONN_MAX_AGE"] = saved_max_age


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
