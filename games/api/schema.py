"""OpenAPI pieces shared by the endpoints: the error shape, and the concurrency headers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from games.api.concurrency import ENTITY_TAG_PATTERN, IDEMPOTENCY_KEY_PATTERN


class StrictSerializerScheme(OpenApiSerializerExtension):
    """Request bodies refuse unknown fields: say so with ``additionalProperties: false``."""

    target_class = "games.variants.json_fields.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        mapped: dict[str, Any] = auto_schema._map_basic_serializer(self.target, direction)
        mapped["additionalProperties"] = False
        return mapped


class RequiredBodySchema(AutoSchema):
    """Marks the request body required where drf-spectacular cannot tell (a oneOf of actions):
    without it the schema would allow an empty body, which the endpoint refuses."""

    def _get_request_body(self, direction: str = "request") -> Any:
        body = super()._get_request_body(direction)
        if body:
            body["required"] = True
        return body


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text=(
            "Stable and machine-readable: validation_error, parse_error, not_authenticated, "
            "authentication_failed, forbidden, not_found, method_not_allowed, "
            "unsupported_media_type, not_acceptable, throttled, illegal_action, "
            "invalid_request, seat_taken, already_seated, stale_version, "
            "idempotency_key_reused, precondition_required, "
            "invalid_header, request_too_large, server_error."
        )
    )
    message = serializers.CharField(help_text="For people: what went wrong.")
    details = serializers.DictField(
        help_text=(
            "More about it: `fields` for validation errors, `current_version` for "
            "stale_version, `retry_after_seconds` for throttled, `header` for invalid_header, "
            "`max_bytes` for request_too_large."
        )
    )


class ErrorSerializer(serializers.Serializer):
    """Every error response of the API has this shape."""

    error = ErrorDetailSerializer()


def error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


BAD_REQUEST = error("The request is malformed or not valid; details say what.")
UNAUTHENTICATED = error("No valid credentials: send `Authorization: Bearer <token>`.")
FORBIDDEN = error("You may not do this.")
NOT_FOUND = error("No such game (or you may not see it), or no such URL.")
CONFLICT = error("The game's status does not allow this now (code invalid_request).")
NOT_OVER = error(
    "The game still runs (code game_not_over): its export exists once it is over. Staff may "
    "export a running game, without its setup."
)
THROTTLED = error("Too many actions: wait `Retry-After` seconds.")
LIMIT_REACHED = error(
    "The account is at a cap (code limit_reached): games waiting or in progress, games between "
    "bots only, or games created in the last hour. The message says which."
)

COMMON_ERRORS: dict[int, Any] = {
    400: BAD_REQUEST,
    401: UNAUTHENTICATED,
    403: FORBIDDEN,
    404: NOT_FOUND,
    405: error("This method is not allowed here."),
    406: error("Only application/json responses are available."),
    413: error("The body is larger than the server reads (`details.max_bytes`, 64 KiB)."),
    415: error("Send the body as application/json."),
    500: error("Unexpected server error."),
}


def responses(ok: dict[int, Any], **extra: Any) -> dict[int, Any]:
    """The success responses plus the errors every endpoint may answer, plus ``extra``."""
    merged = dict(ok)
    merged.update(COMMON_ERRORS)
    merged.update({int(code.removeprefix("status_")): value for code, value in extra.items()})
    return dict(sorted(merged.items()))


def etag(*statuses: int) -> OpenApiParameter:
    """The ETag response header on the responses with these statuses."""
    return OpenApiParameter(
        "ETag",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        response=list(statuses),
        description='The game\'s version as an entity tag, e.g. `"12"`.',
    )


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag you hold: 304 Not Modified, with no body, while the game is unchanged.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    pattern=ENTITY_TAG_PATTERN,
    description=(
        'The ETag of the version your action was chosen at, e.g. `"12"`. Missing: 428; '
        "stale: 412 with `details.current_version`."
    ),
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    pattern=IDEMPOTENCY_KEY_PATTERN,
    description=(
        "Any unique string (1–255 printable ASCII characters, e.g. a UUID). A retry with the "
        "same key and body gets the first response back and plays nothing; the same key with "
        "another body is refused with 422."
    ),
)
