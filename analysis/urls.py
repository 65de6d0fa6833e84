"""The analysis pages, beside a game's replay."""

from __future__ import annotations

from django.urls import path

from analysis import views

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.analysis_request, name="analysis_request"),
    path("games/<int:game_id>/analysis/panel/", views.analysis_panel, name="analysis_panel"),
]
