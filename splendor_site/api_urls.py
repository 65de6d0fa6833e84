"""The REST API under /api/: version 1 at /api/v1/, the schema and its docs page.

The site puts together each app's endpoints (the games', their analyses', the account's, the
statistics') under one namespace, ``api``. Anything else under /api/ answers a JSON 404 in the
API's error shape.
"""

from __future__ import annotations

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import api_urls as account_urls
from games.api import urls as game_urls
from games.api.errors import api_not_found

app_name = "api"

v1_patterns = [
    *game_urls.v1_patterns,
    path("games/<int:game_id>/analysis/", include("analysis.api_urls")),
    path("stats/", include("analytics.api.urls")),
    *account_urls.v1_patterns,
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
