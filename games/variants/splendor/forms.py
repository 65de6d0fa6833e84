"""The base game's move form: the fields its page's controls post, read into an action.

A form checks only the shape of a request (known colours, whole numbers); whether a move is
legal is the engine's call, made in the services, so a page and the API refuse the same moves
with the same words.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from games.engine.splendor import gems
from games.errors import InvalidInput

# The base game's colour names, in the engine's order: the engine is their one home.
GEM_COLOURS = tuple(gems.COLOUR_NAMES[colour] for colour in gems.GEM_COLOURS)
TOKEN_COLOURS = gems.COLOUR_NAMES

ACTION_TYPES = (
    "take_gems",
    "reserve_card",
    "reserve_from_deck",
    "buy_card",
    "return_tokens",
    "choose_noble",
    "pass",
)


class ActionForm(forms.Form):
    """One move from the game page, in the form fields the page's controls post.

    ``action`` is the move in the JSON of docs/notation.md once the form is valid.
    """

    kind = forms.ChoiceField(choices=[(name, name) for name in ACTION_TYPES])
    expected_version = forms.IntegerField(min_value=0)
    idempotency_key = forms.CharField(min_length=8, max_length=64)
    gems = forms.MultipleChoiceField(
        choices=[(colour, colour) for colour in GEM_COLOURS], required=False
    )
    take_two = forms.ChoiceField(
        choices=[(colour, colour) for colour in GEM_COLOURS], required=False
    )
    card = forms.IntegerField(required=False, min_value=0, max_value=10_000)
    level = forms.IntegerField(required=False, min_value=0, max_value=100)
    payment = forms.CharField(required=False, max_length=200)
    noble = forms.IntegerField(required=False, min_value=0, max_value=10_000)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for colour in TOKEN_COLOURS:
            self.fields[f"return_{colour}"] = forms.IntegerField(
                required=False, min_value=0, max_value=100
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        kind = cleaned.get("kind")
        if kind and not self.errors:
            cleaned["action"] = self._action(kind, cleaned)
        return cleaned

    def _action(self, kind: str, cleaned: dict[str, Any]) -> dict[str, Any]:
        if kind == "take_gems":
            gems = [cleaned["take_two"]] * 2 if cleaned.get("take_two") else cleaned["gems"]
            if not gems:
                raise forms.ValidationError("Choose the gems to take.")
            return {"type": kind, "gems": list(gems)}
        if kind in ("reserve_card", "buy_card"):
            if cleaned.get("card") is None:
                raise forms.ValidationError("Say which card.")
            action: dict[str, Any] = {"type": kind, "card": cleaned["card"]}
            if kind == "buy_card" and cleaned.get("payment"):
                action["payment"] = parse_tokens(cleaned["payment"])
            return action
        if kind == "reserve_from_deck":
            if cleaned.get("level") is None:
                raise forms.ValidationError("Say which deck.")
            return {"type": kind, "level": cleaned["level"]}
        if kind == "return_tokens":
            tokens = {
                colour: cleaned[f"return_{colour}"]
                for colour in TOKEN_COLOURS
                if cleaned.get(f"return_{colour}")
            }
            if not tokens:
                raise forms.ValidationError("Choose the tokens to give back.")
            return {"type": kind, "tokens": tokens}
        if kind == "choose_noble":
            if cleaned.get("noble") is None:
                raise forms.ValidationError("Say which noble.")
            return {"type": kind, "noble": cleaned["noble"]}
        return {"type": "pass"}

    def error_text(self) -> str:
        """Every problem in one sentence a player can read."""
        problems = [message for errors in self.errors.values() for message in errors]
        return "That move could not be read: " + " ".join(problems)


def tokens_to_field(tokens: dict[str, int]) -> str:
    """Token counts as one form value, e.g. ``white=1,gold=2`` (read back by parse_tokens)."""
    return ",".join(f"{colour}={count}" for colour, count in tokens.items() if count)


def parse_tokens(value: str) -> dict[str, int]:
    """The inverse of :func:`tokens_to_field`; refuses unknown colours and bad counts."""
    tokens: dict[str, int] = {}
    for part in value.split(","):
        colour, _, count = part.strip().partition("=")
        if colour not in TOKEN_COLOURS or not count.isdigit() or colour in tokens:
            raise forms.ValidationError(f"{part.strip()!r} is not a colour and a count.")
        tokens[colour] = int(count)
    return tokens


def action_from_form(posted: QueryDict) -> tuple[dict[str, Any], int, str]:
    """A posted move: (action JSON, expected version, idempotency key); ``InvalidInput``."""
    form = ActionForm(posted)
    if not form.is_valid():
        raise InvalidInput(form.error_text())
    data = form.cleaned_data
    return data["action"], data["expected_version"], data["idempotency_key"]
