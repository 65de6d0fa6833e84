"""Serializers of the caller's profile and API tokens."""

from __future__ import annotations

from rest_framework import serializers

from accounts.models import DISPLAY_NAME_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH
from games.api.fields import StrictBooleanField, StrictCharField, StrictSerializer


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(
        help_text="The name other players see; empty means the username."
    )
    email_on_turn = serializers.BooleanField(help_text="Email me when a game waits for my move.")


class ProfileUpdateSerializer(StrictSerializer):
    display_name = StrictCharField(
        max_length=DISPLAY_NAME_MAX_LENGTH, allow_blank=True, required=False, trim_whitespace=True
    )
    email_on_turn = StrictBooleanField(required=False)


class ApiTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    last_used_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="To the minute."
    )
    revoked_at = serializers.DateTimeField(read_only=True, allow_null=True)
    is_active = serializers.BooleanField(read_only=True)


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    token = serializers.CharField(
        read_only=True, help_text="The raw token. It is shown only in this response: keep it."
    )


class ApiTokenCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=TOKEN_NAME_MAX_LENGTH, help_text="What it is for.")
