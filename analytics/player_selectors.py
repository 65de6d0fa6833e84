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
from games.variants import GAMES


def player_statistics(user_id: int, stats_filter: StatsFilter) -> dict[str, Any]:
    """A player's numbers over the games the filter selects, then per game (``by_game``): the
    two games' cards share ids and their colours differ, so cards and colours are told per game,
    each card named as its game names it."""
    seats = SeatFacts.objects.filter(user_id=user_id).filter(_game_filter(stats_filter))
    per_game: dict[str, _Results] = {}
    for won, seat_points, seat_colours, seat_cards, variant in seats.values_list(
        "won", "points", "colours", "cards", "game__variant"
    ):
        per_game.setdefault(variant, _Results()).add(
            variant, won, seat_points, seat_colours, seat_cards
        )
    total = _Results()
    for results in per_game.values():
        total.merge(results)
    ratings = player_ratings(user_id)
    rating_of = {rating["variant"]: rating for rating in ratings}
    shown = [
        variant
        for variant in known_variants()
        if variant in per_game or (variant in rating_of and stats_filter.variant in ("", variant))
    ]
    return {
        "filters": stats_filter.to_params(),
        **total.numbers(),
        "favourite_colours": _colour_rows(total.colours),
        "most_bought_cards": [
            _bought_card(variant, card, count) for (variant, card), count in total.top_cards()
        ],
        "ratings": ratings,
        "by_game": [
            _game_numbers(variant, per_game.get(variant, _Results()), rating_of.get(variant))
            for variant in shown
        ],
    }


class _Results:
    """One player's finished games, summed: results, colours and cards bought."""

    def __init__(self) -> None:
        self.games = self.wins = self.points = 0
        self.colours: Counter[str] = Counter()
        self.cards: Counter[tuple[str, int]] = Counter()

    def add(
        self, variant: str, won: bool, points: int, colours: dict[str, int], cards: list[int]
    ) -> None:
        self.games += 1
        self.wins += won
        self.points += points
        self.colours.update(colours)
        self.cards.update((variant, card) for card in cards)

    def merge(self, other: _Results) -> None:
        self.games += other.games
        self.wins += other.wins
        self.points += other.points
        self.colours.update(other.colours)
        self.cards.update(other.cards)

    def numbers(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": ratio(self.wins, self.games),
            "mean_points": ratio(self.points, self.games),
        }

    def top_cards(self, count: int = 10) -> list[tuple[tuple[str, int], int]]:
        """The most bought cards first; ties by game, then card id."""
        return sorted(self.cards.items(), key=lambda item: (-item[1], item[0]))[:count]


def _game_numbers(variant: str, results: _Results, rating: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "variant": variant,
        "title": GAMES[variant].title,
        **results.numbers(),
        "favourite_colours": _colour_rows(results.colours),
        "most_bought_cards": [
            _bought_card(variant, card, count) for (_, card), count in results.top_cards()
        ],
        "rating": rating,
    }


def _colour_rows(colours: Counter[str]) -> list[dict[str, Any]]:
    return [
        {"colour": colour, "cards_bought": count}
        for colour, count in sorted(colours.items(), key=lambda item: (-item[1], item[0]))
    ]


def _bought_card(variant: str, card_id: int, count: int) -> dict[str, Any]:
    seam = analytics_for(variant)
    card = _catalogue(variant)[card_id]
    return {"variant": variant, **card, "name": seam.card_label(card), "times_bought": count}


def _catalogue(variant: str) -> dict[int, dict[str, Any]]:
    return {card["id"]: card for card in analytics_for(variant).cards()}


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
