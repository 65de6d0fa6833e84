"""The HTML pages of the site (the REST API has its own URLs under /api/)."""

from __future__ import annotations

from django.urls import path

from games.web import history_views, how_to_play_views, live_views, seating_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/", views.game_detail, name="game_detail"),
    path("games/<int:game_id>/regions/", views.game_regions, name="game_regions"),
    path("games/<int:game_id>/version", views.game_version, name="game_version"),
    path("games/<int:game_id>/events", live_views.game_events, name="game_events"),
    path("games/<int:game_id>/act/", views.game_act, name="game_act"),
    path("games/<int:game_id>/reclaim/", views.game_reclaim, name="game_reclaim"),
    path("games/<int:game_id>/resign/", views.game_resign, name="game_resign"),
    path("games/<int:game_id>/rematch/", views.game_rematch, name="game_rematch"),
    path("games/<int:game_id>/history/", views.game_history, name="game_history"),
    path("games/<int:game_id>/join/", seating_views.game_join, name="game_join"),
    path("games/<int:game_id>/leave/", seating_views.game_leave, name="game_leave"),
    path("games/<int:game_id>/bots/", seating_views.game_add_bot, name="game_add_bot"),
    path("games/<int:game_id>/cancel/", seating_views.game_cancel, name="game_cancel"),
    path("invite/<str:token>/", seating_views.game_invite, name="game_invite"),
    path("games/mine/", history_views.my_games, name="my_games"),
    path("games/finished/", history_views.finished_games, name="finished_games"),
    path("games/import/", history_views.game_import, name="game_import"),
    path("games/<int:game_id>/replay/", history_views.game_replay, name="game_replay"),
    path("games/<int:game_id>/fork/", history_views.game_fork, name="game_fork"),
    path(
        "games/<int:game_id>/export.json", history_views.game_export_json, name="game_export_json"
    ),
    path("games/<int:game_id>/export.txt", history_views.game_export_text, name="game_export_text"),
    path("players/<str:username>/", history_views.player_profile, name="player_profile"),
    path("how-to-play/<str:variant>/", how_to_play_views.how_to_play, name="how_to_play"),
]
