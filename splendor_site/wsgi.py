"""WSGI entry point, for gunicorn: `gunicorn splendor_site.wsgi`."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

application = get_wsgi_application()

from splendor_site.periodic_jobs import start_in_process_scheduler  # noqa: E402 (Django set up)

start_in_process_scheduler()
