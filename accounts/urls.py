"""Account pages; django.contrib.auth's sign-in and password views are included beside these."""

from __future__ import annotations

from django.urls import path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.token_create, name="token_create"),
    path("profile/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    # Before django.contrib.auth's own view of the same name, which it replaces.
    path(
        "reset/<uidb64>/<token>/",
        views.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
]
