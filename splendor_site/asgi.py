"""ASGI entry point."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")
# Django runs each ASGI request's synchronous code in a thread of its own, so a connection kept
# for reuse would stay open, unused, in a thread that is gone: one per request, or per open
# event stream. Under ASGI, connections close after each request unless configured otherwise.
if not os.environ.get("DATABASE_CONN_MAX_AGE", "").strip():
    os.environ["DATABASE_CONN_MAX_AGE"] = "0"

application = get_asgi_application()

from splendor_site.periodic_jobs import start_in_process_scheduler  # noqa: E402 (Django set up)

start_in_process_scheduler()
