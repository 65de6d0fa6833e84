from __future__ import annotations

from django.contrib import admin
from django.urls import path

from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("admin/", admin.site.urls),
]
