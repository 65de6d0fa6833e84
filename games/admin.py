"""The Django admin: games with their seats and a read-only event log.

Events can be read but never added, changed or deleted here. The two actions go through the
integrity check and the services, like every other reader and writer. Staff see a running
game as a spectator does: an event's payload comes through the selectors, which keep the setup
(seed, deck order) and the salt out until the game is over; the snapshot is never shown.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from games.commands import lobby
from games.commands.integrity import read_model_differences
from games.errors import GameError
from games.models import Game, GameEvent, Seat
from games.reads import game_view


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "display_name", "user", "bot_level")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SpectatorPayload:
    """Shows an event's payload as a spectator sees it: the setup and salt once the game is
    over, never before."""

    @admin.display(description="payload")
    def payload_as_spectator(self, event: GameEvent) -> str:
        running = event.game.is_running
        payload = game_view.event_payload_for_spectator(event, game_is_running=running)
        return format_html("<code>{}</code>", json.dumps(payload, sort_keys=True))


class GameEventInline(SpectatorPayload, admin.TabularInline):
    model = GameEvent
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "seat", "actor", "payload_as_spectator", "created_at")
    readonly_fields = fields
    ordering = ("seq",)
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameEvent]:
        return super().get_queryset(request).select_related("game", "actor")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "variant", "status", "players", "version", "created_at", "finished_at")
    list_filter = ("status", "variant", "is_public", "created_at")
    search_fields = ("seats__display_name", "seats__user__username", "seats__user__email")
    date_hierarchy = "created_at"
    inlines = (SeatInline, GameEventInline)
    actions = ("verify_replay", "abort_games")
    # Every field is a read model of the event log: editing one here would make it drift from
    # the events (verify_games would report it and rebuild_read_models undo it).
    readonly_fields = (
        "variant",
        "status",
        "is_public",
        "seat_count",
        "options",
        "created_by",
        "version",
        "commitment",
        "acting_seat",
        "result",
        "created_at",
        "updated_at",
        "started_at",
        "finished_at",
    )
    fields = readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats").distinct()

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return ", ".join(seat.display_name or "(open)" for seat in game.seats.all())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are created through the lobby or the API, as events

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a game's events are kept forever; abort it instead

    @admin.action(description="Verify replay (events against snapshot and read models)")
    def verify_replay(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            differences = read_model_differences(game)
            if differences:
                self.message_user(
                    request, f"Game {game.pk} differs: {'; '.join(differences)}", messages.ERROR
                )
            else:
                self.message_user(request, f"Game {game.pk}: replay matches.", messages.SUCCESS)

    @admin.action(description="Abort game (appends a GameAborted event)")
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            try:
                lobby.game_abort(game_id=game.pk, by_user=request.user, reason="aborted by staff")
            except GameError as error:
                self.message_user(request, f"Game {game.pk}: {error.message}", messages.WARNING)
            else:
                self.message_user(request, f"Game {game.pk} aborted.", messages.SUCCESS)


@admin.register(GameEvent)
class GameEventAdmin(SpectatorPayload, admin.ModelAdmin):
    list_display = ("game", "seq", "kind", "seat", "actor", "created_at")
    list_filter = ("kind", "created_at")
    search_fields = ("game__id",)
    readonly_fields = (
        "game",
        "seq",
        "kind",
        "seat",
        "actor",
        "schema_version",
        "payload_as_spectator",
        "created_at",
    )
    fields = readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameEvent]:
        return super().get_queryset(request).select_related("game")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
