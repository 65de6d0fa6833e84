"""Mail records, read-only: what was sent to whom, tried how often, given up when."""

from __future__ import annotations

from django.contrib import admin

from notifications.models import MailRecord


@admin.register(MailRecord)
class MailRecordAdmin(admin.ModelAdmin):
    list_display = ("kind", "user", "game", "version", "day", "attempts", "sent_at", "gave_up_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = [field.name for field in MailRecord._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
