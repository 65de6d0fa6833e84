"""The account's endpoints of the REST API's version 1: the profile and the API tokens."""

from __future__ import annotations

from django.urls import path

from accounts import api_views

v1_patterns = [
    path("profile/", api_views.ProfileView.as_view(), name="profile"),
    path("tokens/", api_views.TokenListView.as_view(), name="token-list"),
    path("tokens/<int:token_id>/", api_views.TokenDetailView.as_view(), name="token-detail"),
]
