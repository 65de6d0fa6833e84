"""Admin for users, profiles and API tokens. Token hashes are never shown; tokens are created
and revoked through ``accounts.services`` only.

A user who ever played cannot be deleted (the event log refers to them and is never changed):
the admin refuses and offers "Deactivate and anonymise" instead
(docs/decisions/0101-anonymise-dont-delete.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import selectors, services
from accounts.models import ApiToken, Profile


class PlayerAdmin(UserAdmin):
    actions = ("anonymise",)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Django's own check before a delete, plus: players are protected by their games.

        Whatever is listed as protected makes the admin show why and refuse the delete, for
        the delete page and the bulk "delete selected" action alike.
        """
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        for user in objs:
            footprint = selectors.game_footprint(user)
            if not footprint.is_empty:
                protected.append(
                    f"{user.get_username()}: {footprint.games} game(s) and {footprint.events} "
                    "event(s), which the event log keeps forever. Use the action "
                    "“Deactivate and anonymise” instead."
                )
        return deleted, counts, perms_needed, protected

    @admin.action(description="Deactivate and anonymise (keeps their games)")
    def anonymise(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        names = []
        for user in queryset:
            if user.pk == request.user.pk:
                self.message_user(request, "You cannot anonymise yourself.", messages.ERROR)
                continue
            names.append(user.get_username())
            services.user_anonymise(user)
        if names:
            self.message_user(
                request, f"Deactivated and anonymised: {', '.join(names)}.", messages.SUCCESS
            )


# Replaces django.contrib.auth's registration of User (that app's admin is loaded first).
admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)


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
