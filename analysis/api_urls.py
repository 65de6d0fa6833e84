"""/api/v1/games/{id}/analysis/, included by the API's URLs (``splendor_site.api_urls``)."""

from __future__ import annotations

from django.urls import path

from analysis import api

urlpatterns = [
    path("", api.AnalysisView.as_view(), name="game-analysis"),
]
