"""The Celery app. Workers start it with `celery -A splendor_site worker`."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")

app = Celery("splendor_site")
# Every Celery option comes from Django settings prefixed with CELERY_.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
