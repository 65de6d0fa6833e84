"""Counting finished games: in-process after commit in the quick start, the catch-up, and the
games that are counted but not rated, or not counted at all."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from analytics import selectors
from analytics.filters import StatsFilter
from analytics.models import CountedGame, GameFacts, Rating, RatingChange
from analytics.projections import uncounted_finished_games
from analytics.tasks import catch_up_analytics, count_finished_game
from games.commands import lobby, play
from games.commands.lobby import BotSeat, UserSeat
from testing import synthetic

pytestmark = pytest.mark.django_db

START = datetime(2026, 5, 1, tzinfo=UTC)


def test_without_a_broker_a_finished_game_is_counted_right_after_commit(
    make_user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    ann = make_user("ann")
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.game_create(
            variant="splendor", seats=[UserSeat(ann), BotSeat("greedy")], created_by=ann, seed=4
        )
    assert not GameFacts.objects.exists()  # running: nothing counted
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game_id=game.pk, user=ann)
    assert GameFacts.objects.filter(game_id=game.pk).exists()
    stats = selectors.statistics(StatsFilter())
    assert stats["games"] == 1
    assert stats["players_by_kind"] == [
        {"kind": "greedy", "games": 1, "wins": 1, "win_rate": 1.0},
        {"kind": "human", "games": 1, "wins": 0, "win_rate": 0.0},
    ]


def test_the_catch_up_counts_what_was_missed_once(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    ids = synthetic.write_games(
        [synthetic.GamePlan(seats=[synthetic.SeatPlan(bot_level="random")] * 2, seed=s)
         for s in range(3)], start=START,
    )  # fmt: skip
    count_finished_game(ids[0])
    assert uncounted_finished_games(10) == ids[1:]
    assert catch_up_analytics() == 2
    assert uncounted_finished_games(10) == []
    assert catch_up_analytics() == 0
    assert CountedGame.objects.count() == 6
    assert selectors.statistics(StatsFilter())["games"] == 3


def test_an_aborted_game_is_never_counted(make_user: Any) -> None:
    ann = make_user("ann")
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(ann), lobby.OpenSeat()], created_by=ann
    )
    lobby.game_abort(game_id=game.pk, by_user=ann)
    assert count_finished_game(game.pk) == "not finished"
    assert uncounted_finished_games(10) == []
    assert not CountedGame.objects.exists()


@pytest.mark.parametrize("origin", [{"kind": "import"}, {"kind": "fork", "game": 12, "step": 3}])
def test_imported_and_forked_games_are_left_out_of_statistics_and_ratings(
    make_user: Any, origin: dict[str, Any]
) -> None:
    ann, ben = make_user("ann"), make_user("ben")
    seats = [synthetic.SeatPlan(user_id=ann.pk), synthetic.SeatPlan(user_id=ben.pk)]
    (game_id,) = synthetic.write_games([synthetic.GamePlan(seats=seats, seed=1, origin=origin)])
    (played_here,) = synthetic.write_games([synthetic.GamePlan(seats=seats, seed=2)])
    assert count_finished_game(game_id) == "counted"
    assert count_finished_game(played_here) == "counted"
    # Only the game played here from a fresh deal is in the numbers and the ratings.
    assert selectors.statistics(StatsFilter())["games"] == 1
    assert sorted(rating.games for rating in Rating.objects.all()) == [1, 1]
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {played_here}
    assert CountedGame.objects.filter(game_id=game_id).count() == 2


def test_a_rated_multiplayer_game_ranks_every_seat(make_user: Any) -> None:
    people = [make_user(name) for name in ("ann", "ben", "cat")]
    seats = [synthetic.SeatPlan(user_id=p.pk) for p in people] + [
        synthetic.SeatPlan(bot_level="search")
    ]
    (game_id,) = synthetic.write_games([synthetic.GamePlan(seats=seats, seed=8)])
    count_finished_game(game_id)
    facts = {seat.seat: seat for seat in GameFacts.objects.get(game_id=game_id).seats.all()}
    ratings = {r.participant: r for r in Rating.objects.all()}
    assert len(ratings) == 4
    best = min(facts.values(), key=lambda seat: seat.rank)
    worst = max(facts.values(), key=lambda seat: seat.rank)
    key = lambda seat: f"bot:{seat.bot_level}" if seat.bot_level else f"user:{seat.user_id}"  # noqa: E731
    assert ratings[key(best)].mu > ratings[key(worst)].mu
    assert all(rating.games == 1 for rating in ratings.values())
