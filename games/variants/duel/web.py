"""Splendor Duel on the web: its forms and API bodies, its presenter, words and templates."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import QueryDict
from rest_framework import serializers

from games import engine
from games.errors import InvalidInput
from games.variants import GameWeb
from games.variants.duel.api_actions import DUEL_ACTION_SCHEMA

VARIANT = "duel"


class DuelActionForm(forms.Form):
    """A move from the Duel page: each control posts the action's JSON (docs/notation.md)."""

    action = forms.CharField(max_length=2000)
    expected_version = forms.IntegerField(min_value=0)
    idempotency_key = forms.CharField(min_length=8, max_length=64)

    def clean_action(self) -> dict[str, Any]:
        try:
            return parse_api_action(json.loads(self.cleaned_data["action"]))
        except (ValueError, serializers.ValidationError) as error:
            raise forms.ValidationError(f"not a Splendor Duel action ({_reason(error)}).") from None


def action_from_form(posted: QueryDict) -> tuple[dict[str, Any], int, str]:
    form = DuelActionForm(posted)
    if not form.is_valid():
        problems = [message for errors in form.errors.values() for message in errors]
        raise InvalidInput("That move could not be read: " + " ".join(problems))
    data = form.cleaned_data
    return data["action"], data["expected_version"], data["idempotency_key"]


def parse_api_action(data: Any) -> dict[str, Any]:
    """The action in ``data``, its shape checked by the engine's reader; ``ValidationError``."""
    try:
        return engine.action_to_json(engine.action_from_json(data, VARIANT))
    except engine.MalformedJSON as error:
        raise serializers.ValidationError({"action": [str(error)]}) from None


def _reason(error: Exception) -> str:
    if isinstance(error, serializers.ValidationError):
        detail = error.detail
        if isinstance(detail, dict):
            return " ".join(str(item) for items in detail.values() for item in items)
    return str(error)


def remember_turn(memory: Any, data: Any) -> tuple[None, None]:
    """Duel highlights no new cards yet: nothing to remember between renders."""
    return None, None


WEB = GameWeb(
    variant=VARIANT,
    title="Splendor Duel",
    blurb="The two-player game: take tokens in lines from a 5×5 board; 20 points, 10 crowns "
    "or 10 points in one colour wins.",
    table_template="games/duel/table.html",
    partials="games/duel/partials/",
    action_from_form=action_from_form,
    parse_api_action=parse_api_action,
    action_schema=DUEL_ACTION_SCHEMA,
    remember_turn=remember_turn,
)
