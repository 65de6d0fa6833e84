from __future__ import annotations

from django.urls import path

from operations.health import SiteHealthView

urlpatterns = [
    path("health/", SiteHealthView.as_view(), name="health"),
]
