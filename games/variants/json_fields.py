"""Serializer fields that take JSON at its word: no coercion of "12" to 12 or "yes" to true.

The engine's notation readers are strict in the same way, and a client that sends the wrong
type learns it at once instead of having its request silently reinterpreted.

They live below the API (``games.api`` was their home) because each game's package reads its
API actions with them (``games.variants.<game>.api_actions``), and a game package imports only
downward; the API, ``accounts`` and ``analytics`` import them from here.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    """A JSON number that is a whole number: no strings, floats or booleans (as the engine)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        value: int = super().to_internal_value(data)
        return value


class StrictBooleanField(serializers.BooleanField):
    """JSON ``true`` or ``false`` only."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, as the notation's readers do (and query parameters it
    does not know, so that a misspelt filter is an error rather than ignored)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {str(name): ["This field is not part of this object."] for name in unknown}
                )
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string only."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        value: str = super().to_internal_value(data)
        return value


def validate_tagged(data: Any, variants: Mapping[str, type[serializers.Serializer]]) -> Any:
    """``data`` checked by the serializer its ``type`` names; plain JSON values come back."""
    if not isinstance(data, Mapping):
        raise serializers.ValidationError({"non_field_errors": ["Expected a JSON object."]})
    kind = data.get("type")
    serializer_class = variants.get(kind) if isinstance(kind, str) else None
    if serializer_class is None:
        known = ", ".join(variants)
        raise serializers.ValidationError(
            {"type": [f"Unknown type {kind!r}; expected one of: {known}."]}
        )
    serializer = serializer_class(data=data)
    serializer.__dict__["fields"] = _fields_of(serializer_class)
    serializer.is_valid(raise_exception=True)
    return _plain(serializer.validated_data)


_bound_fields = threading.local()


def _fields_of(serializer_class: type[serializers.Serializer]) -> Any:
    """The serializer's bound fields, made once per class and thread.

    DRF deep-copies every declared field for each serializer it makes (``Serializer.fields``,
    a cached property), which took two thirds of checking an action. The fields keep no state
    of their own while they check a value (the serializer that runs them holds the errors and
    the result), so one set serves every request of a thread.
    """
    made: dict[type[serializers.Serializer], Any] = _bound_fields.__dict__.setdefault("made", {})
    fields = made.get(serializer_class)
    if fields is None:
        fields = made[serializer_class] = serializer_class().fields
    return fields


class TaggedUnionField(serializers.Field):
    """A JSON object whose ``type`` picks the serializer that checks it (set ``variants``)."""

    variants: Mapping[str, type[serializers.Serializer]] = {}

    def to_internal_value(self, data: Any) -> Any:
        return validate_tagged(data, self.variants)

    def to_representation(self, value: Any) -> Any:
        return value


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def single_query_values(request: Any) -> dict[str, str]:
    """The request's query parameters, each given once; a repeated one is a validation error.

    Every query parameter of the API is a single value, as the schema says. Django keeps the
    last of repeated values, which would quietly accept ``?step=x&step=0`` as ``step=0``.
    """
    params = request.query_params
    repeated = sorted(name for name in params if len(params.getlist(name)) > 1)
    if repeated:
        raise serializers.ValidationError(
            {name: ["Give this parameter once."] for name in repeated}
        )
    return {name: params[name] for name in params}
