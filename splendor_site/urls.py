from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

# A database out of reach answers 503 with Retry-After, not a server error (splendor_site.outages).
handler500 = "splendor_site.outages.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("splendor_site.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("stats/", include("analytics.urls")),
    path("", include("operations.urls")),
    path("", include("notifications.urls")),
    path("", include("analysis.urls")),
    path("", include("games.web.urls")),
]
