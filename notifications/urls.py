"""Where links in mail lead."""

from __future__ import annotations

from django.urls import path

from notifications import views

urlpatterns = [
    path("mail/game/<str:token>/", views.game_link, name="mail_game_link"),
    path("mail/unsubscribe/<str:token>/", views.unsubscribe, name="mail_unsubscribe"),
]
