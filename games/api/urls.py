"""The games' endpoints of the REST API's version 1, which the site mounts at /api/v1/
(``splendor_site.api_urls``, beside the other apps' endpoints)."""

from __future__ import annotations

from django.urls import include, path

from games.api import game_views, history_views, lobby_views, play_views

game_patterns = [
    # Playing first: the patterns are tried in order, and these two take most requests.
    path("legal-actions/", play_views.LegalActionsView.as_view(), name="game-legal-actions"),
    path("actions/", play_views.ActionView.as_view(), name="game-actions"),
    path("", game_views.GameDetailView.as_view(), name="game-detail"),
    path("join/", lobby_views.JoinView.as_view(), name="game-join"),
    path("leave/", lobby_views.LeaveView.as_view(), name="game-leave"),
    path("bots/", lobby_views.AddBotView.as_view(), name="game-add-bot"),
    path("start/", lobby_views.StartView.as_view(), name="game-start"),
    path("resign/", lobby_views.ResignView.as_view(), name="game-resign"),
    path("events/", game_views.GameEventsView.as_view(), name="game-events"),
    path("export/", game_views.GameExportView.as_view(), name="game-export"),
    path(
        "export/notation/", history_views.NotationExportView.as_view(), name="game-export-notation"
    ),
    path("export/text/", history_views.TextExportView.as_view(), name="game-export-text"),
    path("replay/", history_views.ReplayView.as_view(), name="game-replay"),
    path("fork/", history_views.ForkView.as_view(), name="game-fork"),
]

v1_patterns = [
    path("games/", game_views.GameListView.as_view(), name="game-list"),
    path("games/import/", history_views.ImportView.as_view(), name="game-import"),
    path("games/<int:game_id>/", include(game_patterns)),
    path("history/", history_views.HistoryListView.as_view(), name="history"),
    path("exports/games.jsonl.gz", history_views.BulkExportView.as_view(), name="bulk-export"),
]
