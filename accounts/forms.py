"""Forms of the account pages: sign up, profile, API tokens."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import DISPLAY_NAME_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH


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
    email_on_turn = forms.BooleanField(
        required=False, label="Email me when a game waits for my move"
    )


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=TOKEN_NAME_MAX_LENGTH,
        label="Token name",
        help_text="What the token is for, e.g. “my bot”.",
    )
