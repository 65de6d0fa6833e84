"""Ratings read on the scale players know: a new player near 1500, marked provisional until
``RATING_PROVISIONAL_GAMES`` rated games, and the leaderboard ordered by the number it shows."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from analytics import projections
from analytics.ratings import display_rating
from testing import synthetic

pytestmark = pytest.mark.django_db

START = datetime(2026, 4, 1, 9, tzinfo=UTC)


def play(pairs: list[tuple[Any, Any]]) -> None:
    """One two-player game per pair, the first named seat first."""
    plans = [
        synthetic.GamePlan(
            seats=[synthetic.SeatPlan(user_id=one.pk), synthetic.SeatPlan(user_id=two.pk)],
            seed=seed,
        )
        for seed, (one, two) in enumerate(pairs)
    ]
    synthetic.write_games(plans, start=START)
    projections.rebuild()


def heading_rating(page: str) -> tuple[int, bool]:
    match = re.search(
        r'id="games-splendor".*?<dt>Rating</dt><dd><span class="rating-value">(\d+)</span>'
        r'( <span class="rating-provisional">provisional</span>)? after',
        page,
        re.S,
    )
    assert match, "no rating heading"
    return int(match.group(1)), bool(match.group(2))


def test_a_new_player_reads_about_1500_and_provisional(client: Client, make_user: Any) -> None:
    ann, ben = make_user("ann"), make_user("ben")
    play([(ann, ben)])
    for player in (ann, ben):
        page = client.get(reverse("stats_player", args=[player.pk])).content.decode()
        rating, provisional = heading_rating(page)
        assert 1400 <= rating <= 1650
        assert provisional
        assert "starts at 1500" in page
        summary = client.get(f"/players/{player.get_username()}/").content.decode()
        assert re.search(rf"<dd>{rating} \(provisional\) after 1 rated game</dd>", summary)
        api = client.get(f"/api/v1/stats/players/{player.pk}/").json()["ratings"][0]
        assert api["display_rating"] == rating == display_rating(api["rating"])
        assert api["provisional"] is True
        assert api["history"][0]["display_before"] == 1500


def test_enough_rated_games_end_provisional(client: Client, make_user: Any, settings: Any) -> None:
    settings.RATING_PROVISIONAL_GAMES = 3
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    play([(ann, ben), (ann, ben), (ann, cat)])  # ann 3 games, ben 2, cat 1
    ann_page = client.get(reverse("stats_player", args=[ann.pk])).content.decode()
    assert heading_rating(ann_page)[1] is False
    assert "provisional</span>" not in ann_page
    ben_page = client.get(reverse("stats_player", args=[ben.pk])).content.decode()
    assert heading_rating(ben_page)[1] is True
    assert (
        client.get(f"/api/v1/stats/players/{ann.pk}/").json()["ratings"][0]["provisional"] is False
    )


def test_the_leaderboard_sorts_by_the_rating_it_shows(
    client: Client, make_user: Any, settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 1
    people = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    ann, ben, cat, dan = people
    play([(ann, ben), (cat, dan), (ann, cat), (ben, dan), (ann, dan), (cat, ben)])
    board = client.get("/api/v1/stats/leaderboard/").json()["players"]
    assert len(board) == 4
    assert [row["display_rating"] for row in board] == [
        display_rating(row["rating"]) for row in board
    ]
    page = client.get(reverse("leaderboard")).content.decode()
    shown = [
        int(value) for value in re.findall(r'<td class="rating-cell" data-value="(\d+)">\1', page)
    ]
    assert shown == [row["display_rating"] for row in board]
    assert shown == sorted(shown, reverse=True)
    assert len(set(shown)) > 1
    assert all(1000 < value < 2000 for value in shown)
