"""Forms of the account pages: sign up, profile, API tokens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import DISPLAY_NAME_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH, Profile
from accounts.services import time_zone_names


class SignUpForm(UserCreationForm):
    """A username, a password, and an email address for resetting the password."""

    email = forms.EmailField(
        required=True, help_text="Only for resetting your password and, if you wish, turn mail."
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        required=False,
        max_length=DISPLAY_NAME_MAX_LENGTH,
        help_text="The name other players see. Leave it empty to show your username.",
    )
    notify = forms.ChoiceField(
        choices=Profile.Notify.choices,
        label="Email me about games waiting for my move",
        widget=forms.RadioSelect,
        required=False,
    )
    digest_hour = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        label="Hour of the daily digest",
    )
    time_zone = forms.ChoiceField(
        required=False,
        label="Your time zone",
        help_text="For the digest's hour and the deadlines in mail.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(name, name) for name in sorted(time_zone_names())]

    def clean(self) -> dict[str, Any]:
        """A setting left out of the post stays as it is (None tells the service so)."""
        cleaned = super().clean() or {}
        for name in ("notify", "digest_hour", "time_zone"):
            if cleaned.get(name) in ("", None):
                cleaned[name] = None
        return cleaned


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=TOKEN_NAME_MAX_LENGTH,
        label="Token name",
        help_text="What the token is for, e.g. “my bot”.",
    )
