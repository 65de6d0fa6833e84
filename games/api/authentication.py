"""Personal API tokens over HTTP: ``Authorization: Bearer <token>``.

The site's session works too (``SessionAuthentication``, with its CSRF check); this class is
listed first so that a request without credentials gets 401 with ``WWW-Authenticate: Bearer``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from accounts import services
from accounts.models import ApiToken

KEYWORD = b"bearer"


class BearerTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD:
            return None  # not ours: let the session have a go
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Malformed Authorization header: send 'Bearer <token>'."
            )
        try:
            raw_token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("The token is not valid.") from None
        token = services.token_authenticate(raw_token)
        if token is None:
            # Never echo the token: messages and logs must not carry it.
            raise exceptions.AuthenticationFailed("The token is not valid, or was revoked.")
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        definition: dict[str, Any] = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Bearer"
        )
        definition["description"] = (
            "A personal API token, created on the profile page or with POST /api/v1/tokens/ "
            "from a signed-in session."
        )
        return definition
