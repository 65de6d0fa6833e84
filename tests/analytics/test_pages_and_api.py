"""The statistics pages, CSV downloads and API show the projections' numbers, agree with each
other, refuse bad filters with a 400 that changes nothing, and use no inline script or style."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from analytics import projections
from analytics.models import Tally
from testing import synthetic

pytestmark = pytest.mark.django_db

START = datetime(2026, 4, 1, 9, tzinfo=UTC)


@pytest.fixture
def counted(make_user: Any) -> dict[str, Any]:
    ann, ben = make_user("ann"), make_user("ben")
    plans = [
        synthetic.GamePlan(
            seats=[synthetic.SeatPlan(user_id=ann.pk), synthetic.SeatPlan(user_id=ben.pk)],
            seed=seed,
        )
        for seed in range(3)
    ] + [
        synthetic.GamePlan(
            seats=[
                synthetic.SeatPlan(user_id=ann.pk),
                synthetic.SeatPlan(bot_level="greedy"),
                synthetic.SeatPlan(bot_level="random"),
            ],
            seed=9,
        ),
    ]
    ids = synthetic.write_games(plans, start=START)
    projections.rebuild()
    return {"ann": ann, "ben": ben, "ids": ids}


def test_the_statistics_page_shows_charts_and_tables_without_inline_code(
    client: Client, counted: dict[str, Any]
) -> None:
    page = client.get(reverse("stats"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<b>4</b> finished games" in html
    assert html.count('class="pygal-chart') == 6  # three card levels, seats, length, points
    assert html.count("data-sortable") >= 8
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert " style=" not in html
    assert "<style" not in html
    # Colour is never the only cue: the bars of the card charts carry gem letters.
    assert re.search(r">L\d W\d [^<]+<", html)
    assert re.search(r">L\d K\d [^<]+<", html)


def test_filters_are_links_and_htmx_swaps_only_the_body(
    client: Client, counted: dict[str, Any]
) -> None:
    html = client.get(reverse("stats")).content.decode()
    assert 'href="?players=3"' in html
    assert 'hx-boost="true"' in html
    partial = client.get(reverse("stats"), {"players": 3}, headers={"HX-Request": "true"})
    body = partial.content.decode()
    assert body.startswith('<div id="stats-body"')
    assert "<b>1</b> finished game," in body


def test_a_bad_filter_is_refused_with_its_reason(client: Client, counted: dict[str, Any]) -> None:
    before = list(Tally.objects.values_list("id", "value"))
    for params, words in [
        ({"players": "7"}, "players must be 2, 3 or 4"),
        ({"variant": "chess"}, "variant must be one of"),
        ({"since": "yesterday"}, "since must be a date"),
        ({"since": "2026-05-02", "until": "2026-05-01"}, "since must not be after until"),
        ({"bots": "maybe"}, "bots must be"),
    ]:
        page = client.get(reverse("stats"), params)
        assert page.status_code == 400
        assert words in page.content.decode()
        api = client.get("/api/v1/stats/", params)
        assert api.status_code == 400
        assert api.json()["error"]["code"] == "validation_error"
    assert client.get("/api/v1/stats/", {"colour": "red"}).status_code == 400
    assert list(Tally.objects.values_list("id", "value")) == before


def test_api_csv_and_page_give_the_same_numbers(client: Client, counted: dict[str, Any]) -> None:
    api = client.get("/api/v1/stats/", {"players": 2}).json()
    assert api["games"] == 3
    response = client.get(reverse("stats_csv", args=["cards"]), {"players": 2})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == len(api["cards"]) == 90 + 67  # every variant's cards: no filter on it
    assert [row["variant"] for row in rows].count("splendor") == 90
    for row, card in zip(rows, api["cards"], strict=True):
        assert int(row["id"]) == card["id"]
        assert int(row["times_bought"]) == card["times_bought"]
        assert int(row["times_on_display"]) == card["times_on_display"]
    seats = list(
        csv.DictReader(
            io.StringIO(
                client.get(
                    reverse("stats_csv", args=["seat_order"]), {"players": 2}
                ).content.decode()
            )
        )
    )
    assert [int(row["wins"]) for row in seats] == [row["wins"] for row in api["seat_order"]]
    assert client.get(reverse("stats_csv", args=["secrets"])).status_code == 404


def test_card_noble_and_player_pages(client: Client, counted: dict[str, Any]) -> None:
    api = client.get("/api/v1/stats/").json()
    bought = next(card for card in api["cards"] if card["times_bought"])
    page = client.get(reverse("stats_card", args=["splendor", bought["id"]]))
    assert page.status_code == 200
    assert "Is it worth buying?" in page.content.decode()
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", page.content.decode())
    assert "None" not in cells  # a player count where nobody bought it shows a dash
    assert "–" in cells
    assert f"{bought['purchase_rate'] * 100:.1f}%" in cells
    detail = client.get(f"/api/v1/stats/cards/splendor/{bought['id']}/").json()
    assert detail["card"]["times_bought"] == bought["times_bought"]
    assert sum(row["times_bought"] for row in detail["by_players"]) == bought["times_bought"]
    assert client.get(reverse("stats_card", args=["splendor", 90])).status_code == 404
    assert client.get("/api/v1/stats/cards/splendor/90/").status_code == 404
    assert client.get(reverse("stats_noble", args=["splendor", 3])).status_code == 200
    ann = counted["ann"]
    player = client.get(f"/api/v1/stats/players/{ann.pk}/").json()
    assert player["games"] == 4
    assert player["ratings"][0]["games"] == 4
    assert len(player["ratings"][0]["history"]) == 4
    page = client.get(reverse("stats_player", args=[ann.pk])).content.decode()
    assert "Rating" in page
    assert "Favourite colours" in page


def test_a_public_profile_shows_the_players_numbers_and_leads_to_their_statistics(
    client: Client, counted: dict[str, Any]
) -> None:
    ann = counted["ann"]
    numbers = client.get(f"/api/v1/stats/players/{ann.pk}/").json()
    page = client.get("/players/ann/").content.decode()
    summary = page[page.index('id="player-stats"') : page.index("</section>")]
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", summary))
    assert facts["Finished games"] == "4"
    assert facts["Wins"].startswith(f"{numbers['wins']} (")
    assert facts["Splendor rating"].endswith("after 4 rated games")
    assert f'href="{reverse("stats_player", args=[ann.pk])}"' in summary


def test_the_leaderboard_lists_players_with_enough_games_and_bots_apart(
    client: Client, counted: dict[str, Any], settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 4
    board = client.get("/api/v1/stats/leaderboard/").json()
    assert [row["name"] for row in board["players"]] == ["ann"]  # ben has 3 games
    assert {row["bot_level"] for row in board["bots"]} == {"greedy", "random"}
    page = client.get(reverse("leaderboard")).content.decode()
    assert "ann" in page
    assert "Greedy bot" in page
    assert client.get(reverse("leaderboard"), {"variant": "chess"}).status_code == 400


def test_the_nav_links_the_statistics_and_the_profile_links_the_player_page(
    client: Client, counted: dict[str, Any]
) -> None:
    client.force_login(counted["ann"])
    home = client.get(reverse("lobby")).content.decode()
    assert reverse("stats") in home
    assert reverse("leaderboard") in home
    profile = client.get(reverse("profile")).content.decode()
    assert reverse("stats_player", args=[counted["ann"].pk]) in profile


def test_cached_numbers_change_as_soon_as_another_game_is_counted(
    client: Client, counted: dict[str, Any]
) -> None:
    for _ in range(2):  # the second answer comes from the cache
        assert "<b>4</b> finished games" in client.get(reverse("stats")).content.decode()
        assert client.get("/api/v1/stats/").json()["games"] == 4
    seats = [synthetic.SeatPlan(bot_level="random")] * 2
    (game_id,) = synthetic.write_games([synthetic.GamePlan(seats=seats, seed=77)], start=START)
    assert projections.count_game(game_id) == "counted"
    assert "<b>5</b> finished games" in client.get(reverse("stats")).content.decode()
    assert client.get("/api/v1/stats/").json()["games"] == 5
    partial = client.get(reverse("stats"), headers={"HX-Request": "true"}).content.decode()
    assert "<b>5</b> finished games" in partial
    # A second delivery changes nothing, and the cache still answers.
    assert projections.count_game(game_id) == "already counted"
    assert client.get("/api/v1/stats/").json()["games"] == 5
