"""A player's page keeps the two games apart: a section per game with its own results, rating,
colours and cards, each card named as its game names it. The two games number their cards from
0 alike (the base game's card 5 is not Duel's card 5), so a number alone would mix them."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from analytics import projections
from analytics.models import SeatFacts
from analytics.variants import analytics_for
from testing import synthetic

pytestmark = pytest.mark.django_db

START = datetime(2026, 5, 1, 9, tzinfo=UTC)


def _name(variant: str, card_id: int) -> str:
    card = next(card for card in analytics_for(variant).cards() if card["id"] == card_id)
    return analytics_for(variant).card_label(card)


def _section(page: str, variant: str) -> str:
    start = page.index(f'id="games-{variant}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def ann_played_both(make_user: Any) -> Any:
    ann = make_user("ann")
    bot = synthetic.SeatPlan(bot_level="random")
    ann_seat = synthetic.SeatPlan(user_id=ann.pk)
    plans = [
        synthetic.GamePlan(seats=[ann_seat, bot], seed=seed, variant=variant)
        for variant in ("splendor", "duel")
        for seed in (1, 2)
    ]
    synthetic.write_games(plans, start=START)
    projections.rebuild()
    return ann


def test_a_player_of_both_games_sees_each_apart_with_its_own_card_names(
    client: Client, ann_played_both: Any
) -> None:
    ann = ann_played_both
    bought = {
        variant: {card for cards in rows for card in cards}
        for variant in ("splendor", "duel")
        for rows in [
            SeatFacts.objects.filter(user=ann, game__variant=variant).values_list(
                "cards", flat=True
            )
        ]
    }
    page = client.get(reverse("stats_player", args=[ann.pk])).content.decode()
    base, duel = _section(page, "splendor"), _section(page, "duel")
    assert ">Splendor</h2>" in base
    assert ">Splendor Duel</h2>" in duel
    for section in (base, duel):
        assert "<dt>Finished games</dt><dd>2</dd>" in section
        assert re.search(r'<dt>Rating</dt><dd><span class="rating-value">\d+</span>', section)

    links = {
        variant: {
            int(card): name
            for card, name in re.findall(
                rf'<a href="/stats/cards/{variant}/(\d+)/">([^<]+)</a>', _section(page, variant)
            )
        }
        for variant in ("splendor", "duel")
    }
    # Each section lists its own game's cards only, each by its game's name, never "#5".
    assert 'href="/stats/cards/duel/' not in base
    assert 'href="/stats/cards/splendor/' not in duel
    for variant, shown in links.items():
        assert shown
        assert set(shown) <= bought[variant]
        for card, name in shown.items():
            assert name == _name(variant, card)
            assert not name.startswith("#")
    # Cards with the same number in the two games, each named apart.
    shared = set(links["splendor"]) & set(links["duel"])
    assert shared
    for card in shared:
        assert links["splendor"][card] != links["duel"][card]

    api = client.get(f"/api/v1/stats/players/{ann.pk}/").json()
    assert [game["variant"] for game in api["by_game"]] == ["splendor", "duel"]
    for game in api["by_game"]:
        assert game["games"] == 2
        assert game["rating"]["variant"] == game["variant"]
        for card in game["most_bought_cards"]:
            assert card["variant"] == game["variant"]
            assert card["name"] == _name(game["variant"], card["id"])
    duel_colours = {row["colour"] for row in api["by_game"][1]["favourite_colours"]}
    assert duel_colours <= set(analytics_for("duel").colours)


def test_the_game_filter_keeps_one_section(client: Client, ann_played_both: Any) -> None:
    ann = ann_played_both
    page = client.get(reverse("stats_player", args=[ann.pk]), {"variant": "duel"})
    assert 'id="games-duel"' in page.content.decode()
    assert 'id="games-splendor"' not in page.content.decode()


def test_the_public_profile_sums_results_but_tells_points_and_ratings_per_game(
    client: Client, ann_played_both: Any
) -> None:
    page = client.get("/players/ann/").content.decode()
    summary = page[page.index('id="player-stats"') : page.index("</section>")]
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", summary))
    assert facts["Finished games"] == "4"
    assert "Mean points" not in facts  # the games' points are on different scales
    for title in ("Splendor", "Splendor Duel"):
        assert re.fullmatch(r"2 games, \d won, \d+\.\d points on average", facts[title])
        assert facts[f"{title} rating"].endswith("after 2 rated games")
