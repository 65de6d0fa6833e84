"""Every statistic equals a brute-force recount from the event log: after counting games one by
one as their tasks would, after a full rebuild, and after the tasks run twice or in another
order. Running games count nothing. Hypothesis picks the games: how many, how many players,
people or bots, who resigns and when, on which days they finish."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from analytics import projections, selectors
from analytics.filters import StatsFilter
from analytics.models import CountedGame, GameFacts, Rating, Tally
from analytics.tasks import count_finished_game
from games.models import Game
from testing import synthetic
from tests.analytics.recount import finished_games, recount

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 12, tzinfo=UTC)
FILTERS = [
    {},
    {"variant": "splendor"},
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"bots": "humans"},
    {"bots": "bots"},
    {"since": date(2026, 3, 2)},
    {"until": date(2026, 3, 2)},
    {"players": 2, "bots": "bots"},
    {"since": date(2026, 3, 2), "until": date(2026, 3, 3), "bots": "humans"},
]


def seat_plans(users: list[int]) -> st.SearchStrategy[list[synthetic.SeatPlan]]:
    seat = st.one_of(
        st.sampled_from(synthetic.BOT_LEVELS).map(
            lambda level: synthetic.SeatPlan(bot_level=level)
        ),
        st.sampled_from(users).map(lambda user: synthetic.SeatPlan(user_id=user)),
    )
    return st.lists(seat, min_size=2, max_size=4).filter(
        lambda seats: (
            len({s.user_id for s in seats if s.user_id}) == sum(1 for s in seats if s.user_id)
        )
    )


@st.composite
def game_plans(draw: st.DrawFn, users: list[int]) -> tuple[synthetic.GamePlan, int]:
    seats = draw(seat_plans(users))
    has_human = any(seat.user_id for seat in seats)
    resign_at = draw(st.none() | st.integers(0, 60)) if has_human else None
    finish = draw(st.booleans().map(lambda running: not running) | st.just(True))
    plan = synthetic.GamePlan(
        seats=seats, seed=draw(st.integers(0, 2**40)), resign_at_turn=resign_at,
        finish=finish, stop_at_turn=draw(st.integers(0, 30)),
    )  # fmt: skip
    return plan, draw(st.integers(0, 3))


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def comparable(stats: dict[str, Any], like: dict[str, Any]) -> dict[str, Any]:
    """The projection's numbers, keeping only what the recount computes."""
    kept = {}
    for key, expected in like.items():
        value = stats[key]
        if key in ("cards", "nobles"):
            # The recount is of the base game's cards and nobles (only base games are played
            # here); the other variants' rows must be there, and empty.
            others = [row for row in value if row["variant"] != "splendor"]
            assert all(not row.get("times_on_display", row.get("games_in_play")) for row in others)
            value = [row for row in value if row["variant"] == "splendor"]
        if isinstance(expected, list):
            fields = set(expected[0]) if expected else set()
            value = [{k: row[k] for k in fields} for row in value] if fields else value
        kept[key] = value
    return _rounded(kept)


def assert_matches_recount() -> None:
    everything = finished_games()
    for wanted in FILTERS:
        expected = recount(wanted, everything)
        actual = selectors.statistics(StatsFilter(**wanted))
        assert comparable(actual, expected) == _rounded(expected), wanted


def ratings_now() -> dict[str, tuple[float, float, int]]:
    return {
        rating.participant: (round(rating.mu, 9), round(rating.sigma, 9), rating.games)
        for rating in Rating.objects.all()
    }


@pytest.fixture
def users(make_user: Any) -> list[int]:
    return [make_user(name).pk for name in ("ann", "ben", "cat")]


@given(data=st.data())
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    # Shrinking replays whole games through the database: the failing example is shown as found.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
def test_statistics_equal_a_recount_from_the_event_log(
    users: list[int], data: st.DataObject
) -> None:
    drawn = data.draw(st.lists(game_plans(users), min_size=1, max_size=5), label="games")
    # Hypothesis's examples share the test's database: the games of earlier examples are there,
    # counted and rebuilt, and the new games may finish before them.
    ids = []
    for plan, day in drawn:
        ids += synthetic.write_games([plan], start=START + timedelta(days=day, seconds=len(ids)))
    finished = list(GameFacts.objects.values_list("game_id", flat=True))
    # Incrementally, as each game's task would, in the order they were written: a game written
    # later may have finished days earlier.
    results = {game_id: count_finished_game(game_id) for game_id in sorted(ids)}
    status = dict(Game.objects.filter(pk__in=ids).values_list("pk", "status"))
    for game_id in ids:
        assert results[game_id] == ("counted" if status[game_id] == "finished" else "not finished")
    running = [game_id for game_id in ids if status[game_id] != "finished"]
    assert not GameFacts.objects.filter(game_id__in=running).exists()
    assert_matches_recount()
    incremental_ratings = ratings_now()

    # Every task again, in another order: nothing counts twice.
    again = ids + finished
    random.Random(len(ids)).shuffle(again)
    assert {count_finished_game(game_id) for game_id in again} <= {
        "already counted",
        "not finished",
    }
    assert_matches_recount()
    assert ratings_now() == incremental_ratings

    # A rebuild from the log gives the same numbers and the same ratings, whatever order the
    # games were counted in (ratings follow the order games finished).
    projections.rebuild()
    assert_matches_recount()
    assert ratings_now() == incremental_ratings
    assert CountedGame.objects.count() == 2 * GameFacts.objects.count()


def test_counting_in_another_order_gives_the_same_statistics(users: list[int]) -> None:
    plans = [
        synthetic.GamePlan(
            seats=[synthetic.SeatPlan(user_id=users[0]), synthetic.SeatPlan(bot_level="greedy")],
            seed=1,
        ),
        synthetic.GamePlan(seats=[synthetic.SeatPlan(bot_level="random")] * 3, seed=2),
        synthetic.GamePlan(
            seats=[synthetic.SeatPlan(user_id=users[1]), synthetic.SeatPlan(user_id=users[2])],
            seed=3,
            resign_at_turn=8,
        ),
        # Players of the games before: counted first, it would be rated from their first ratings.
        synthetic.GamePlan(
            seats=[
                synthetic.SeatPlan(user_id=users[1]),
                synthetic.SeatPlan(user_id=users[0]),
                synthetic.SeatPlan(bot_level="greedy"),
            ],
            seed=4,
        ),
    ]
    ids = synthetic.write_games(plans, start=START)
    for game_id in reversed(ids):
        count_finished_game(game_id)
    reversed_order = comparable(selectors.statistics(StatsFilter()), recount({}))
    assert reversed_order == _rounded(recount({}))
    ratings_in_reverse = ratings_now()
    projections.rebuild()
    assert comparable(selectors.statistics(StatsFilter()), recount({})) == reversed_order
    assert ratings_now() == ratings_in_reverse


def test_a_running_game_contributes_nothing(users: list[int]) -> None:
    running = synthetic.GamePlan(
        seats=[synthetic.SeatPlan(user_id=users[0]), synthetic.SeatPlan(bot_level="random")],
        seed=5, finish=False, stop_at_turn=12,
    )  # fmt: skip
    (game_id,) = synthetic.write_games([running], start=START)
    assert count_finished_game(game_id) == "not finished"
    projections.rebuild()
    assert not Tally.objects.exists()
    assert not CountedGame.objects.exists()
    assert selectors.statistics(StatsFilter())["games"] == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_rebuild_folding_in_several_processes_gives_the_same_numbers(make_user: Any) -> None:
    ann = make_user("ann")
    plans = [
        synthetic.GamePlan(
            seats=[synthetic.SeatPlan(user_id=ann.pk)]
            + [synthetic.SeatPlan(bot_level="random")] * (seed % 3 + 1),
            seed=seed,
        )
        for seed in range(6)
    ]
    synthetic.write_games(plans, start=START)
    assert projections.rebuild(processes=1) == 6
    alone = selectors.statistics(StatsFilter())
    ratings_alone = ratings_now()
    assert projections.rebuild(processes=2) == 6
    assert selectors.statistics(StatsFilter()) == alone
    assert ratings_now() == ratings_alone
