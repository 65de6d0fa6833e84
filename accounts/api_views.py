"""The caller's own account: profile and personal API tokens."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.api_serializers import (
    ApiTokenCreatedSerializer,
    ApiTokenCreateSerializer,
    ApiTokenSerializer,
    ProfileSerializer,
    ProfileUpdateSerializer,
)
from accounts.models import ApiToken, Profile
from games.api import schema
from games.api.permissions import TokensAreCreatedBySession


class ProfileView(APIView):
    permission_classes = (IsAuthenticated,)
    http_method_names = ("get", "patch", "head", "options")

    @extend_schema(
        operation_id="profile_retrieve",
        summary="Your profile",
        tags=["account"],
        responses=schema.responses({200: ProfileSerializer}),
    )
    def get(self, request: Request) -> Response:
        return Response(_profile_json(request.user, account_selectors.profile_for(request.user)))

    @extend_schema(
        operation_id="profile_update",
        summary="Change your display name or notification settings",
        tags=["account"],
        request=ProfileUpdateSerializer,
        responses=schema.responses({200: ProfileSerializer}),
    )
    def patch(self, request: Request) -> Response:
        body = ProfileUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        profile = account_services.profile_update(request.user, **body.validated_data)
        return Response(_profile_json(request.user, profile))


class TokenListView(APIView):
    permission_classes = (IsAuthenticated, TokensAreCreatedBySession)

    @extend_schema(
        operation_id="tokens_list",
        summary="Your API tokens",
        description="Newest first, revoked ones included. The raw tokens are never shown again.",
        tags=["account"],
        responses=schema.responses({200: ApiTokenSerializer(many=True)}),
    )
    def get(self, request: Request) -> Response:
        tokens = account_selectors.token_list(request.user)
        return Response([_token_json(token) for token in tokens])

    @extend_schema(
        operation_id="tokens_create",
        summary="Create an API token",
        description=(
            "Only from a signed-in session (a token cannot create tokens). The raw token is in "
            "this response only: store it, it cannot be shown again."
        ),
        tags=["account"],
        request=ApiTokenCreateSerializer,
        responses=schema.responses({201: ApiTokenCreatedSerializer}),
    )
    def post(self, request: Request) -> Response:
        body = ApiTokenCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        token, raw_token = account_services.token_create(request.user, body.validated_data["name"])
        return Response(
            {**_token_json(token), "token": raw_token},
            status=status.HTTP_201_CREATED,
            headers={"Cache-Control": "no-store"},
        )


class TokenDetailView(APIView):
    permission_classes = (IsAuthenticated,)
    http_method_names = ("delete", "options")

    @extend_schema(
        operation_id="tokens_revoke",
        summary="Revoke an API token",
        description="Refused from the next request on. Revoking a revoked token changes nothing.",
        tags=["account"],
        responses=schema.responses({204: OpenApiResponse(description="Revoked.")}),
    )
    def delete(self, request: Request, token_id: int) -> Response:
        account_services.token_revoke(token_id, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _profile_json(user: AbstractBaseUser, profile: Profile) -> dict[str, Any]:
    return {
        "username": user.get_username(),
        "display_name": profile.display_name,
        "notify": profile.notify,
        "digest_hour": profile.digest_hour,
        "time_zone": profile.time_zone,
    }


def _token_json(token: ApiToken) -> dict[str, Any]:
    data: dict[str, Any] = ApiTokenSerializer(token).data
    return dict(data)
