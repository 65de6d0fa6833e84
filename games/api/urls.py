"""The REST API under /api/: version 1 at /api/v1/, the schema and its docs page.

Anything else under /api/ answers a JSON 404 in the API's error shape.
"""

from __future__ import annotations

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import api_views as account_views
from games.api import game_views, history_views, lobby_views, play_views
from games.api.errors import api_not_found

app_name = "api"

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
    # The analysis app's (issue 27): named by string, so games imports nothing of it.
    path("analysis/", include("analysis.api_urls")),
]

v1_patterns = [
    path("games/", game_views.GameListView.as_view(), name="game-list"),
    path("games/import/", history_views.ImportView.as_view(), name="game-import"),
    path("games/<int:game_id>/", include(game_patterns)),
    path("history/", history_views.HistoryListView.as_view(), name="history"),
    path("exports/games.jsonl.gz", history_views.BulkExportView.as_view(), name="bulk-export"),
    path("stats/", include("analytics.api.urls")),
    path("profile/", account_views.ProfileView.as_view(), name="profile"),
    path("tokens/", account_views.TokenListView.as_view(), name="token-list"),
    path("tokens/<int:token_id>/", account_views.TokenDetailView.as_view(), name="token-detail"),
]

urlpatterns = [
    path("v1/", include(v1_patterns)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the CSP allows no inline script.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api:schema", template_name="api/swagger_ui.html"
        ),
        name="docs",
    ),
    re_path(r"^", api_not_found),
]
