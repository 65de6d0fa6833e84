"""Splendor Duel's statistics, on real Duel games played through the engine, equal a
brute-force recount from the event log: cards seen and bought, royal cards, the win-condition
mix, the first player's results, abilities and privileges. The page, the API and the CSV show
them when the Duel filter is picked; a rebuild gives the same numbers."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from analytics import projections, selectors
from analytics.filters import StatsFilter
from analytics.tasks import count_finished_game
from games import engine
from games.models import Game, GameEvent
from games.records import projection
from games.records.record import Event
from testing import synthetic

pytestmark = pytest.mark.django_db

START = datetime(2026, 6, 1, 10, tzinfo=UTC)
ABILITIES = ("extra_turn", "take_token", "privilege", "steal")


@pytest.fixture
def duel_games(make_user: Any) -> list[int]:
    ann = make_user("ann")
    random_bot = synthetic.SeatPlan(bot_level="random")
    plans = [
        synthetic.GamePlan(seats=[random_bot, random_bot], seed=1, variant="duel"),
        synthetic.GamePlan(seats=[random_bot, random_bot], seed=2, variant="duel"),
        synthetic.GamePlan(seats=[random_bot, random_bot], seed=3, variant="duel"),
        synthetic.GamePlan(
            seats=[synthetic.SeatPlan(user_id=ann.pk), random_bot],
            seed=4,
            variant="duel",
            resign_at_turn=12,
        ),
        synthetic.GamePlan(  # still running: it counts nothing
            seats=[random_bot, random_bot], seed=5, variant="duel", finish=False, stop_at_turn=9
        ),
    ]
    ids = synthetic.write_games(plans, start=START)
    # A base game alongside: the Duel numbers must not mix with it.
    ids += synthetic.write_games([synthetic.GamePlan(seats=[random_bot] * 3, seed=6)], start=START)
    return ids


def duel_recount() -> dict[str, Any]:
    """Straight from the log: replay each finished Duel game with the checked fold, compare the
    public views (as the end reveals them) before and after every action."""
    seen: Counter[int] = Counter()
    bought: Counter[int] = Counter()
    royals_taken: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    abilities: Counter[str] = Counter()
    abilities_by_winner: Counter[str] = Counter()
    privileges: Counter[str] = Counter()
    first = {"games": 0, "wins": 0}
    second_wins = 0
    first_seats: list[int] = []
    wins_by_seat: Counter[int] = Counter()
    games = 0
    for game in Game.objects.filter(status="finished", variant="duel"):
        games += 1
        record = None
        game_seen: set[int] = set()
        uses: list[tuple[int, str]] = []
        for row in GameEvent.objects.filter(game=game).order_by("seq"):
            before = record
            record = projection.evolve(
                record, Event(row.seq, row.kind, row.payload, row.seat, row.created_at)
            )
            if record.state is None:
                continue
            after = engine.view(record.state, None, reveal=True)
            game_seen |= {card["id"] for line in after["pyramid"] for card in line if card}
            if row.kind == "GameStarted":
                first_player = after["current"]
            if row.kind != "ActionTaken":
                continue
            old = engine.view(before.state, None, reveal=True)  # type: ignore[union-attr]
            for seat in (0, 1):
                was, now = old["players"][seat], after["players"][seat]
                had = {card["id"] for card in was["cards"]}
                for card in now["cards"]:
                    if card["id"] not in had:
                        bought[card["id"]] += 1
                        if card["ability"] in ABILITIES:
                            uses.append((seat, card["ability"]))
                # A card reserved unseen from a deck came into play in the hand.
                game_seen |= {card["id"] for card in now["reserved"]}
                had_royals = {royal["id"] for royal in was["royals"]}
                for royal in now["royals"]:
                    if royal["id"] not in had_royals:
                        royals_taken[royal["id"]] += 1
                        if royal["ability"] in ABILITIES:
                            uses.append((seat, royal["ability"]))
                if row.payload["action"]["type"] == "use_privilege" and seat == row.seat:
                    privileges["used"] += was["privileges"] - now["privileges"]
        assert record is not None
        assert record.result is not None
        winners = set(record.result["winners"])
        endings[record.result["ended_by"]] += 1
        first["games"] += 1
        first["wins"] += first_player in winners
        second_wins += (1 - first_player) in winners
        first_seats.append(first_player)
        wins_by_seat.update(winners)
        for seat, ability in uses:
            abilities[ability] += 1
            abilities_by_winner[ability] += seat in winners
        seen.update(game_seen)
    return {
        "games": games, "seen": seen, "bought": bought, "royals": royals_taken,
        "endings": endings, "abilities": abilities, "by_winner": abilities_by_winner,
        "privileges_used": privileges["used"], "first": first, "second_wins": second_wins,
        "first_seats": first_seats, "wins_by_seat": wins_by_seat,
    }  # fmt: skip


def assert_duel_numbers_match(expected: dict[str, Any]) -> None:
    stats = selectors.statistics(StatsFilter(variant="duel"))
    assert stats["games"] == expected["games"]
    duel = stats["duel"]
    assert duel["games"] == expected["games"]
    assert {row["ended_by"]: row["games"] for row in duel["win_conditions"]} == dict(
        expected["endings"]
    )
    assert duel["first_player"]["games"] == expected["first"]["games"]
    assert duel["first_player"]["wins"] == expected["first"]["wins"]
    # The shared seat statistics count the order of play too, in Duel's words.
    assert [(row["player"], row["games"], row["wins"]) for row in stats["seat_order"]] == [
        ("first player (drawn)", expected["games"], expected["first"]["wins"]),
        ("second player", expected["games"], expected["second_wins"]),
    ]
    for row in duel["abilities"]:
        assert row["uses"] == expected["abilities"][row["ability"]], row
        if row["uses"]:
            share = expected["by_winner"][row["ability"]] / row["uses"]
            assert row["by_winner_share"] == pytest.approx(share)
    used = next(row for row in duel["privileges"] if row["privilege"] == "used")
    assert used["count"] == expected["privileges_used"]
    assert len(stats["cards"]) == 67
    for card in stats["cards"]:
        assert card["variant"] == "duel"
        assert card["times_on_display"] == expected["seen"][card["id"]], card["id"]
        assert card["times_bought"] == expected["bought"][card["id"]], card["id"]
    assert {row["id"]: row["visits"] for row in stats["nobles"]} == {
        royal: expected["royals"][royal] for royal in range(4)
    }
    assert all(row["games_in_play"] == expected["games"] for row in stats["nobles"])


def test_duel_statistics_equal_a_recount_incrementally_and_after_a_rebuild(
    duel_games: list[int],
) -> None:
    results = [count_finished_game(game_id) for game_id in duel_games]
    assert results.count("not finished") == 1
    expected = duel_recount()
    assert expected["games"] == 4
    assert "resignation" in expected["endings"]
    assert sum(expected["abilities"].values()) > 0
    assert expected["privileges_used"] > 0
    assert_duel_numbers_match(expected)
    # The base game is counted apart: its own filter sees only it, and no Duel numbers.
    base = selectors.statistics(StatsFilter(variant="splendor"))
    assert base["games"] == 1
    assert base["duel"] is None
    assert selectors.statistics(StatsFilter())["games"] == 5
    projections.rebuild()
    assert_duel_numbers_match(expected)


def test_the_duel_filter_shows_duel_numbers_on_the_page_the_api_and_the_csv(
    client: Client, duel_games: list[int]
) -> None:
    projections.rebuild()
    page = client.get(reverse("stats"), {"variant": "duel"}).content.decode()
    assert "Splendor Duel: how games are won" in page
    assert "Royal cards" in page
    assert "twenty points" in page or "resignation" in page
    assert page.count('class="pygal-chart') == 6  # three card levels, seats, length, points
    assert ">J" in page  # the joker card's letter, on the chart and in the table
    base_page = client.get(reverse("stats"), {"variant": "splendor"}).content.decode()
    assert "Splendor Duel: how games are won" not in base_page
    # Each variant's nobles in its own words, from the variant registry.
    assert "Take rate" in page
    assert "J joker" in page
    assert "Visit rate" not in page
    assert "Visit rate" in base_page
    assert "Royal cards" not in base_page
    # One game at a time (issue 29): without a filter the page is the base game's, with a
    # switch to the Duel's.
    first = client.get(reverse("stats")).content.decode()
    assert first.count('class="pygal-chart') == 6  # three card levels, seats, length, points
    assert 'id="cards-splendor"' in first
    assert 'id="cards-duel"' not in first
    assert 'href="?variant=duel">Splendor Duel</a>' in first

    api = client.get("/api/v1/stats/", {"variant": "duel"}).json()
    assert api["duel"] == selectors.statistics(StatsFilter(variant="duel"))["duel"]
    assert client.get("/api/v1/stats/", {"variant": "splendor"}).json()["duel"] is None
    rows = list(
        csv.DictReader(
            io.StringIO(
                client.get(
                    reverse("stats_csv", args=["duel_abilities"]), {"variant": "duel"}
                ).content.decode()
            )
        )
    )
    assert [(row["ability"], int(row["uses"])) for row in rows] == [
        (row["ability"], row["uses"]) for row in api["duel"]["abilities"]
    ]
    cards = list(
        csv.DictReader(
            io.StringIO(client.get(reverse("stats_csv", args=["cards"])).content.decode())
        )
    )
    assert len(cards) == 90 + 67
    assert {row["ability"] for row in cards if row["variant"] == "splendor"} == {""}
    assert client.get(reverse("stats_csv", args=["duel_secrets"])).status_code == 404
    card = next(row for row in api["cards"] if row["times_bought"])
    detail = client.get(reverse("stats_card", args=["duel", card["id"]]))
    assert detail.status_code == 200
    assert client.get(reverse("stats_noble", args=["duel", 0])).status_code == 200


def test_a_duel_counts_the_player_who_moved_first_whatever_the_seat_and_never_says_seat_1_does(
    client: Client, duel_games: list[int]
) -> None:
    """Duel draws who starts. In these games the second seat moved first (read from each game's
    log), so "first player (drawn)" holds that seat's results, not the first seat's."""
    # A fifth finished Duel, drawn by the engine to start from the second seat too: with an odd
    # number of games the two seats' wins differ, so counting by seat could not pass.
    seed = next(seed for seed in range(10, 100) if engine.new_game("duel", 2, seed).first_player)
    random_bot = synthetic.SeatPlan(bot_level="random")
    plan = synthetic.GamePlan(seats=[random_bot, random_bot], seed=seed, variant="duel")
    synthetic.write_games([plan], start=START)
    projections.rebuild()
    expected = duel_recount()
    assert expected["first_seats"] == [1] * 5  # the second seat started every one
    first_player_wins = expected["first"]["wins"]
    assert first_player_wins != expected["wins_by_seat"][0]  # counting by seat would show
    rows = selectors.statistics(StatsFilter(variant="duel"))["seat_order"]
    assert rows[0]["player"] == "first player (drawn)"
    assert rows[0]["wins"] == first_player_wins == expected["wins_by_seat"][1]

    page = client.get(reverse("stats"), {"variant": "duel"}).content.decode()
    assert "seat 1" not in page.lower()  # neither "Seat 1 moves first" nor a "seat 1" bar
    assert "Win rate by who moved first" in page
    summary = page[page.index('id="summary"') : page.index('id="cards"')]
    assert re.search(r"first player \(drawn\): \d+\.\d%, second player: \d+\.\d%", summary)
    csv_text = client.get(reverse("stats_csv", args=["seat_order"]), {"variant": "duel"})
    seat_rows = list(csv.DictReader(io.StringIO(csv_text.content.decode())))
    assert [(row["player"], int(row["wins"])) for row in seat_rows] == [
        ("first player (drawn)", first_player_wins),
        ("second player", expected["second_wins"]),
    ]
    for table in ("seat_order", "endings", "cards", "duel_first_player"):
        text = client.get(reverse("stats_csv", args=[table]), {"variant": "duel"}).content
        assert b"seat 1" not in text.lower(), table
        assert b"reached_points" not in text, table
    # The base game's seat 1 does move first, and its page says so; summed over both games
    # the places are named in words true of either.
    base_page = client.get(reverse("stats"), {"variant": "splendor"}).content.decode()
    assert "Seat 1 moves first" in base_page
    # A Duel is for two: its page offers no player count, and the switch to it drops one.
    assert "Players:" in base_page
    assert "Players:" not in page
    three = client.get(reverse("stats"), {"variant": "splendor", "players": 3}).content.decode()
    assert 'href="?variant=duel">Splendor Duel</a>' in three
    assert "Splendor Duel at a glance" in page
    detail = client.get("/api/v1/stats/cards/duel/0/").json()
    assert [row["players"] for row in detail["by_players"]] == [2]
    assert detail["card"]["name"] == "L1 W0 Gem 2R 2K"  # Duel's card 0, as its table draws it
    card_page = client.get(reverse("stats_card", args=["duel", 0])).content.decode()
    assert "<h1>Splendor Duel card L1 W0 Gem 2R 2K</h1>" in card_page
    both = client.get("/api/v1/stats/").json()["seat_order"]
    assert [row["player"] for row in both] == ["moved 1st", "moved 2nd", "moved 3rd"]
