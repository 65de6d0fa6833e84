"""Serializers of the caller's profile and API tokens."""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

from accounts.models import DISPLAY_NAME_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH
from accounts.text import NON_BLANK_TEXT_PATTERN, VISIBLE_TEXT_PATTERN
from games.api.fields import StrictBooleanField, StrictCharField, StrictSerializer

_NO_CONTROL_CHARACTERS = (
    "Control characters are not allowed. Neither are invisible formatting ones."
)


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(
        help_text="The name other players see; empty means the username."
    )
    email_on_turn = serializers.BooleanField(help_text="Email me when a game waits for my move.")


class ProfileUpdateSerializer(StrictSerializer):
    display_name = StrictCharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        allow_blank=True,
        required=False,
        # Checked as sent, as the schema states it; the service trims surrounding spaces.
        trim_whitespace=False,
        validators=[RegexValidator(VISIBLE_TEXT_PATTERN, _NO_CONTROL_CHARACTERS)],
        help_text="Empty to show your username. No control or invisible formatting characters.",
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
    name = StrictCharField(
        max_length=TOKEN_NAME_MAX_LENGTH,
        trim_whitespace=False,
        validators=[RegexValidator(NON_BLANK_TEXT_PATTERN, _NO_CONTROL_CHARACTERS)],
        help_text="What it is for. Not only spaces; no control or invisible formatting characters.",
    )
