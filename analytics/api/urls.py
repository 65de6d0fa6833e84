"""/api/v1/stats/…"""

from __future__ import annotations

from django.urls import path

from analytics.api import views

urlpatterns = [
    path("", views.StatisticsView.as_view(), name="stats"),
    path("cards/<str:variant>/<int:card_id>/", views.CardView.as_view(), name="stats-card"),
    path("nobles/<str:variant>/<int:noble_id>/", views.NobleView.as_view(), name="stats-noble"),
    path("players/<int:user_id>/", views.PlayerView.as_view(), name="stats-player"),
    path("leaderboard/", views.LeaderboardView.as_view(), name="stats-leaderboard"),
]
