"""/api/v1/games/{id}/analysis/, included by the API's URLs (``games.api.urls``)."""

from __future__ import annotations

from django.urls import path

from analysis import api

urlpatterns = [
    path("", api.AnalysisView.as_view(), name="game-analysis"),
]
