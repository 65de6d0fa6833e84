from __future__ import annotations

from django.urls import path

from operations.health import SiteHealthView
from operations.views import metrics

urlpatterns = [
    path("health/", SiteHealthView.as_view(), name="health"),
    path("metrics", metrics, name="metrics"),
]
