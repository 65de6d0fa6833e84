"""Splendor Duel's move form: each control of its page posts the action's JSON (docs/notation.md).

The action is read as the API reads it (``games.variants.duel.api_actions.parse_action``), so a
page and the API refuse the same bodies; whether a move is legal is the engine's call, made in
the services.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import QueryDict
from rest_framework import serializers

from games.errors import InvalidInput
from games.variants.duel.api_actions import parse_action


class DuelActionForm(forms.Form):
    """A move from the Duel page: each control posts the action's JSON (docs/notation.md)."""

    action = forms.CharField(max_length=2000)
    expected_version = forms.IntegerField(min_value=0)
    idempotency_key = forms.CharField(min_length=8, max_length=64)

    def clean_action(self) -> dict[str, Any]:
        try:
            return parse_action(json.loads(self.cleaned_data["action"]))
        except (ValueError, serializers.ValidationError) as error:
            raise forms.ValidationError(f"not a Splendor Duel action ({_reason(error)}).") from None


def action_from_form(posted: QueryDict) -> tuple[dict[str, Any], int, str]:
    """A posted move: (action JSON, expected version, idempotency key); ``InvalidInput``."""
    form = DuelActionForm(posted)
    if not form.is_valid():
        problems = [message for errors in form.errors.values() for message in errors]
        raise InvalidInput("That move could not be read: " + " ".join(problems))
    data = form.cleaned_data
    return data["action"], data["expected_version"], data["idempotency_key"]


def _reason(error: Exception) -> str:
    if isinstance(error, serializers.ValidationError):
        detail = error.detail
        if isinstance(detail, dict):
            return " ".join(str(item) for items in detail.values() for item in items)
    return str(error)
