"""The statistics under /api/v1/stats/: the numbers of the pages, as JSON. Read-only, public."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analytics import player_selectors, selectors
from analytics.api import serializers as shapes
from analytics.filters import StatsFilter
from analytics.variants import known_variants
from games.api import schema
from games.variants.json_fields import single_query_values


def _filter(request: Request) -> StatsFilter:
    query = shapes.StatsFilterSerializer(data=single_query_values(request))
    query.is_valid(raise_exception=True)
    return query.to_filter()


class StatsView(APIView):
    permission_classes = (permissions.AllowAny,)


class StatisticsView(StatsView):
    @extend_schema(
        operation_id="stats_overview",
        summary="Every statistic of the finished games a filter selects",
        tags=["stats"],
        parameters=[shapes.StatsFilterSerializer],
        responses=schema.responses({200: shapes.StatisticsSerializer}),
    )
    def get(self, request: Request) -> Response:
        return Response(shapes.StatisticsSerializer(selectors.statistics(_filter(request))).data)


class CardView(StatsView):
    @extend_schema(
        operation_id="stats_card",
        summary="One card: is it worth buying?",
        tags=["stats"],
        parameters=[shapes.StatsFilterSerializer],
        responses=schema.responses({200: shapes.CardDetailSerializer}),
    )
    def get(self, request: Request, variant: str, card_id: int) -> Response:
        data = _lookup(selectors.card_statistics, variant, card_id, _filter(request))
        return Response(shapes.CardDetailSerializer(data).data)


class NobleView(StatsView):
    @extend_schema(
        operation_id="stats_noble",
        summary="One noble: how often it visits, and how the visited do",
        tags=["stats"],
        parameters=[shapes.StatsFilterSerializer],
        responses=schema.responses({200: shapes.NobleDetailSerializer}),
    )
    def get(self, request: Request, variant: str, noble_id: int) -> Response:
        data = _lookup(selectors.noble_statistics, variant, noble_id, _filter(request))
        return Response(shapes.NobleDetailSerializer(data).data)


class PlayerView(StatsView):
    @extend_schema(
        operation_id="stats_player",
        summary="One player's results, colours, cards and rating history",
        tags=["stats"],
        parameters=[shapes.StatsFilterSerializer],
        responses=schema.responses({200: shapes.PlayerStatsSerializer}),
    )
    def get(self, request: Request, user_id: int) -> Response:
        stats_filter = _filter(request)
        if not get_user_model().objects.filter(pk=user_id, is_active=True).exists():
            raise exceptions.NotFound("There is no such player.")
        data = player_selectors.player_statistics(user_id, stats_filter)
        return Response(shapes.PlayerStatsSerializer(data).data)


class LeaderboardView(StatsView):
    @extend_schema(
        operation_id="stats_leaderboard",
        summary="Ratings of a variant: players with enough rated games, and the bots",
        tags=["stats"],
        parameters=[shapes.LeaderboardQuerySerializer],
        responses=schema.responses({200: shapes.LeaderboardSerializer}),
    )
    def get(self, request: Request) -> Response:
        query = shapes.LeaderboardQuerySerializer(data=single_query_values(request))
        query.is_valid(raise_exception=True)
        variant = query.validated_data.get("variant", known_variants()[0])
        return Response(shapes.LeaderboardSerializer(player_selectors.leaderboard(variant)).data)


def _lookup(select: Any, variant: str, item: int, stats_filter: StatsFilter) -> Any:
    if variant not in known_variants():
        raise exceptions.NotFound(f"There is no variant {variant!r}.")
    try:
        return select(variant, item, stats_filter)
    except LookupError as error:
        raise exceptions.NotFound(str(error)) from None
