"""Admin for profiles and API tokens. Token hashes are never shown; tokens are created and
revoked through ``accounts.services`` only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import services
from accounts.models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "notify", "updated_at")
    search_fields = ("user__username", "display_name")
    list_select_related = ("user",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("name", "user__username")
    list_select_related = ("user",)
    fields = ("user", "name", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ("revoke",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a raw token must be shown to its owner, which the admin cannot do

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset.select_related("user"):
            services.token_revoke(token.pk, token.user)
        self.message_user(request, f"Revoked {queryset.count()} token(s).", messages.SUCCESS)
