"""Reads of the players: a player's statistics and ratings, and the leaderboard of a variant.

Shared by the pages, the API and the CSV downloads, as ``analytics.selectors`` is for the
statistics of games: plain JSON-ready dicts, rates ``None`` where nothing was counted. A rating
is shown on the display scale, provisional until ``RATING_PROVISIONAL_GAMES`` rated games.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings
from django.db.models import Q

from accounts.models import Profile
from analytics.filters import StatsFilter
from analytics.models import Rating, RatingChange, SeatFacts
from analytics.ratings import display_rating, participant_of
from analytics.selectors import ratio
from analytics.variants import analytics_for, known_variants


def player_statistics(user_id: int, stats_filter: StatsFilter) -> dict[str, Any]:
    seats = SeatFacts.objects.filter(user_id=user_id).filter(_game_filter(stats_filter))
    games = wins = points = 0
    colours: Counter[str] = Counter()
    cards: Counter[tuple[str, int]] = Counter()
    for won, seat_points, seat_colours, seat_cards, variant in seats.values_list(
        "won", "points", "colours", "cards", "game__variant"
    ):
        games += 1
        wins += won
        points += seat_points
        colours.update(seat_colours)
        cards.update((variant, card) for card in seat_cards)
    catalogue = {
        (variant, card["id"]): card
        for variant in known_variants()
        for card in analytics_for(variant).cards()
    }
    return {
        "filters": stats_filter.to_params(),
        "games": games,
        "wins": wins,
        "win_rate": ratio(wins, games),
        "mean_points": ratio(points, games),
        "favourite_colours": [
            {"colour": colour, "cards_bought": count}
            for colour, count in sorted(colours.items(), key=lambda item: (-item[1], item[0]))
        ],
        "most_bought_cards": [
            {"variant": variant, **catalogue[variant, card], "times_bought": count}
            for (variant, card), count in sorted(cards.items(), key=lambda i: (-i[1], i[0]))[:10]
        ],
        "ratings": player_ratings(user_id),
    }


def player_ratings(user_id: int) -> list[dict[str, Any]]:
    participant = participant_of(user_id, "")
    result = []
    for rating in Rating.objects.filter(participant=participant).order_by("variant"):
        history = RatingChange.objects.filter(
            participant=participant, variant=rating.variant
        ).order_by("finished_at", "game_id")
        result.append(
            {
                "variant": rating.variant,
                **_shown(rating.ordinal, rating.games),
                "mu": rating.mu,
                "sigma": rating.sigma,
                "games": rating.games,
                "history": [
                    {
                        "game": change.game_id,
                        "finished_at": change.finished_at,
                        "before": change.ordinal_before,
                        "after": change.ordinal,
                        "display_before": display_rating(change.ordinal_before),
                        "display_after": display_rating(change.ordinal),
                    }
                    for change in history
                ],
            }
        )
    return result


def _shown(ordinal: float, games: int) -> dict[str, Any]:
    """A rating's raw ordinal and how players see it: on the display scale, provisional until
    ``RATING_PROVISIONAL_GAMES`` rated games."""
    return {
        "rating": ordinal,
        "display_rating": display_rating(ordinal),
        "provisional": games < settings.RATING_PROVISIONAL_GAMES,
    }


def _game_filter(stats_filter: StatsFilter) -> Q:
    query = Q()
    if stats_filter.variant:
        query &= Q(game__variant=stats_filter.variant)
    if stats_filter.players:
        query &= Q(game__player_count=stats_filter.players)
    if stats_filter.bots:
        query &= Q(game__with_bots=stats_filter.bots == "bots")
    if stats_filter.since:
        query &= Q(game__finished_at__date__gte=stats_filter.since)
    if stats_filter.until:
        query &= Q(game__finished_at__date__lte=stats_filter.until)
    return query


def leaderboard(variant: str, *, min_games: int | None = None) -> dict[str, Any]:
    """Players with at least ``min_games`` rated games, best first; bots on a list of their own."""
    if min_games is None:
        min_games = settings.LEADERBOARD_MIN_GAMES
    ratings = (
        Rating.objects.filter(variant=variant)
        .select_related("user")
        .order_by("-ordinal", "participant")
    )
    listed = list(ratings.filter(user__isnull=False, games__gte=min_games))
    names = _names_of([rating.user for rating in listed if rating.user is not None])
    players = [
        {
            "rank": rank,
            "user_id": rating.user_id,
            "name": names.get(rating.user_id, ""),
            **_shown(rating.ordinal, rating.games),
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": rating.games,
        }
        for rank, rating in enumerate(listed, start=1)
    ]
    bots = [
        {
            "rank": rank,
            "bot_level": rating.bot_level,
            **_shown(rating.ordinal, rating.games),
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": rating.games,
        }
        for rank, rating in enumerate(ratings.filter(bot_level__gt=""), start=1)
    ]
    return {"variant": variant, "min_games": min_games, "players": players, "bots": bots}


def _names_of(users: list[Any]) -> dict[int, str]:
    """Display names as other players see them, in one query."""
    chosen = dict(
        Profile.objects.filter(user__in=users)
        .exclude(display_name="")
        .values_list("user_id", "display_name")
    )
    return {user.pk: chosen.get(user.pk) or user.get_username() for user in users}
