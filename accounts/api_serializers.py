"""Serializers of the caller's profile and API tokens."""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

from accounts.models import DISPLAY_NAME_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH, Profile
from accounts.services import time_zone_names
from accounts.text import NON_BLANK_TEXT_PATTERN, VISIBLE_NON_EMPTY_TEXT_PATTERN
from games.variants.json_fields import StrictCharField, StrictIntegerField, StrictSerializer

_NO_CONTROL_CHARACTERS = (
    "Control characters are not allowed. Neither are invisible formatting ones."
)


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(
        help_text="The name other players see; empty means the username."
    )
    notify = serializers.ChoiceField(
        choices=Profile.Notify.choices,
        help_text="Mail about games waiting for my move: every turn, a daily digest, or none.",
    )
    digest_hour = serializers.IntegerField(
        min_value=0, max_value=23, help_text="The digest's hour, in `time_zone`."
    )
    time_zone = serializers.CharField(help_text="An IANA time zone name, e.g. Europe/Paris.")


class ProfileUpdateSerializer(StrictSerializer):
    display_name = StrictCharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        allow_blank=True,
        required=False,
        # Checked as sent, as the schema states it; the service trims surrounding spaces. The
        # empty text is taken before validators run (allow_blank).
        trim_whitespace=False,
        validators=[RegexValidator(VISIBLE_NON_EMPTY_TEXT_PATTERN, _NO_CONTROL_CHARACTERS)],
        help_text="Empty to show your username. No control or invisible formatting characters.",
    )
    notify = serializers.ChoiceField(choices=Profile.Notify.choices, required=False)
    digest_hour = StrictIntegerField(min_value=0, max_value=23, required=False)
    # The schema lists the zones this machine knows, the ones the profile accepts.
    time_zone = serializers.ChoiceField(choices=sorted(time_zone_names()), required=False)


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
