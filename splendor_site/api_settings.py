"""The REST API's settings (Django REST framework, the OpenAPI schema), part of the site's
settings.

``splendor_site.settings`` takes every name here; they live apart because they are one subject
(how the JSON API authenticates, parses, throttles, answers errors and documents itself) that a
reader looks up as a whole.
"""

from __future__ import annotations

from splendor_site.environment import env_str

# --- REST API ---------------------------------------------------------------------------------

# JSON only, one error shape (games.api.errors), personal bearer tokens or the site's session.
# A process remembers an authenticated API token this many seconds (0: never); a revoked token
# is refused everywhere within that time (docs/decisions/0088-token-cache.md).
API_TOKEN_CACHE_SECONDS = float(env_str("API_TOKEN_CACHE_SECONDS", "5"))

# Action submission is throttled per user; API_ACTION_THROTTLE_RATE is "<count>/<sec|min|hour>".
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # Bounded in size and nesting depth (games.api.parsers).
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.BoundedJSONParser"],
    # DRF's, answering "accepts JSON" without parsing the Accept header each time.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "games.api.negotiation.JsonFirstContentNegotiation",
    "EXCEPTION_HANDLER": "games.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {"actions": env_str("API_ACTION_THROTTLE_RATE", "600/min")},
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "UNICODE_JSON": True,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Splendor Online API",
    "DESCRIPTION": (
        "Play Splendor through HTTP. The guide with a complete example bot is docs/api.md; "
        "actions use the JSON of docs/notation.md. Every error has the shape "
        '`{"error": {"code", "message", "details"}}`.'
    ),
    "VERSION": "1.0.0",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.vocabulary.Status.choices",
        "BotLevelEnum": "games.vocabulary.BotLevel.choices",
        "GemColourEnum": "games.variants.splendor.api_actions.GEM_COLOURS",
        "OriginKindEnum": "games.api.game_serializers.ORIGIN_KINDS",
        "EventKindEnum": "games.vocabulary.EventKind.choices",
        "VariantEnum": "games.engine.VARIANTS",
        "DuelVariantEnum": "games.api.game_serializers.DUEL_VARIANT",
        # Action types both games have: one enum each, under the base game's names.
        "ReserveCardActionTypeEnum": ["reserve_card"],
        "ReserveFromDeckActionTypeEnum": ["reserve_from_deck"],
        "BuyCardActionTypeEnum": ["buy_card"],
        "PassActionTypeEnum": ["pass"],
        "DuelStealableColourEnum": "games.variants.duel.api_actions.DUEL_STEALABLE_COLOURS",
    },
}
