"""Ratings are a function of the ordered log: whatever order games are counted in (two workers,
a retry, the catch-up), the ratings and their history are those of rating every game in the
order it finished, (finished_at, game id) within a variant, which is what a rebuild does."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import IntegrityError

from analytics import projections
from analytics.models import CountedGame, GameFacts, Rating, RatingChange, SeatFacts, Tally
from analytics.tasks import count_finished_game
from testing import synthetic
from tests import races

START = datetime(2026, 4, 1, 9, tzinfo=UTC)


def ratings_and_history() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and every rating change, exactly (no rounding)."""
    current = list(
        Rating.objects.order_by("variant", "participant").values_list(
            "variant", "participant", "user_id", "bot_level", "mu", "sigma", "ordinal", "games"
        )
    )
    history = list(
        RatingChange.objects.order_by("variant", "finished_at", "game_id", "participant")
        .values_list("variant", "game_id", "participant", "ordinal_before", "mu", "sigma",
                     "ordinal", "finished_at")
    )  # fmt: skip
    return current, history


def forget_every_count() -> None:
    for model in (RatingChange, Rating, SeatFacts, GameFacts, Tally, CountedGame):
        model.objects.all().delete()


def games_of_the_same_players(users: list[int]) -> list[synthetic.GamePlan]:
    """Games sharing players, with an unrated (imported) game and a Duel among them."""
    ann, ben, cat = (synthetic.SeatPlan(user_id=user) for user in users)
    greedy, search = synthetic.SeatPlan(bot_level="greedy"), synthetic.SeatPlan(bot_level="search")
    return [
        synthetic.GamePlan(seats=[ann, ben], seed=1),
        synthetic.GamePlan(seats=[ben, cat, greedy], seed=2),
        synthetic.GamePlan(seats=[ann, ben], seed=3, origin={"kind": "import"}),
        synthetic.GamePlan(seats=[ann, greedy, greedy], seed=4),
        synthetic.GamePlan(seats=[ann, ben], seed=5, variant="duel"),
        synthetic.GamePlan(seats=[cat, ann, search, ben], seed=6, resign_at_turn=9),
        synthetic.GamePlan(seats=[ben, ann], seed=7, variant="duel"),
        synthetic.GamePlan(seats=[cat, ben], seed=8),
        synthetic.GamePlan(seats=[greedy, search], seed=9),
        synthetic.GamePlan(seats=[ann, cat, ben], seed=10),
    ]


@pytest.mark.django_db
def test_games_counted_in_reverse_get_the_ratings_of_counting_them_in_order(
    make_user: Any,
) -> None:
    users = [make_user(name).pk for name in ("ann", "ben", "cat")]
    ids = synthetic.write_games(games_of_the_same_players(users), start=START)
    finished = ids  # write_games plays the games one after another: they finish in this order

    for game_id in reversed(finished):
        assert count_finished_game(game_id) == "counted"
    in_reverse = ratings_and_history()

    forget_every_count()
    for game_id in finished:
        count_finished_game(game_id)
    in_order = ratings_and_history()

    projections.rebuild()
    rebuilt = ratings_and_history()

    assert in_reverse == in_order
    assert in_order == rebuilt
    current, history = rebuilt
    imported = ids[2]
    assert imported not in {row[1] for row in history}
    assert {row[0] for row in current} == {"splendor", "duel"}
    # Every participant's games count is their number of rated games, and the last change of
    # their history is their rating.
    for variant, participant, _user, _bot, mu, sigma, _ordinal, games in current:
        theirs = [row for row in history if (row[0], row[2]) == (variant, participant)]
        assert len(theirs) == games
        assert theirs[-1][4:6] == (mu, sigma)


@pytest.mark.django_db
def test_a_game_counted_late_is_rated_before_the_games_that_finished_after_it(
    make_user: Any,
) -> None:
    users = [make_user(name).pk for name in ("ann", "ben", "cat")]
    ids = synthetic.write_games(games_of_the_same_players(users), start=START)
    late = ids[3]
    for game_id in ids:
        if game_id != late:
            count_finished_game(game_id)
    assert count_finished_game(late) == "counted"
    counted = ratings_and_history()
    projections.rebuild()
    assert counted == ratings_and_history()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_workers_counting_games_at_once_in_any_order_end_with_the_rebuilds_ratings(
    make_user: Any,
) -> None:
    users = [make_user(name).pk for name in ("ann", "ben", "cat")]
    ids = synthetic.write_games(games_of_the_same_players(users) * 2, start=START)
    workers = 4
    orders = [random.Random(worker).sample(ids, len(ids)) for worker in range(workers)]

    def count_in_own_order(worker: int) -> list[str]:
        results, queue = [], list(orders[worker])
        while queue:
            game_id = queue.pop(0)
            try:
                results.append(count_finished_game(game_id))
            except IntegrityError:
                queue.append(game_id)  # as the catch-up would count it again, later
        return results

    outcomes = races.all_at_once(count_in_own_order, workers)
    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    # Every game counted once, by one of the workers.
    assert [result for outcome in outcomes for result in outcome].count("counted") == len(ids)
    counted = ratings_and_history()
    projections.rebuild()
    assert counted == ratings_and_history()
