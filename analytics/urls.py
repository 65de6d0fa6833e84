"""The statistics pages, under /stats/."""

from __future__ import annotations

from django.urls import path

from analytics import views

urlpatterns = [
    path("", views.stats_overview, name="stats"),
    path("csv/<str:table>/", views.stats_csv, name="stats_csv"),
    path("cards/<str:variant>/<int:card_id>/", views.card_detail, name="stats_card"),
    path("nobles/<str:variant>/<int:noble_id>/", views.noble_detail, name="stats_noble"),
    path("players/<int:user_id>/", views.player_detail, name="stats_player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
