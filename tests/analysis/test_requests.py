"""Asking for an analysis: finished games only, idempotent, capped per account, run in order."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from analysis import runner, services
from analysis.models import Analysis, AnalysisStatus
from analysis.runner import run_analysis
from games.errors import GameNotFound, GameNotOver, LimitReached
from games.models import Game
from games.vocabulary import Status
from testing.synthetic import GamePlan, SeatPlan, write_games

pytestmark = pytest.mark.django_db


def _running_game(alice: User, bob: User) -> Game:
    (game_id,) = write_games(
        [
            GamePlan(
                seats=[SeatPlan(user_id=alice.pk), SeatPlan(user_id=bob.pk)],
                seed=3,
                finish=False,
                stop_at_turn=6,
            )
        ]
    )
    game = Game.objects.get(pk=game_id)
    assert game.status == Status.ACTIVE
    return game


def test_a_running_game_is_never_analysed(alice: User, bob: User) -> None:
    game = _running_game(alice, bob)
    with pytest.raises(GameNotOver):
        services.request_analysis(game.pk, alice)
    assert not Analysis.objects.exists()


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_a_finished_game_is_analysed_move_by_move(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: Callable[..., object],
    variant: str,
) -> None:
    game = finished_game_of(alice, bob, variant=variant)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        analysis, created = services.request_analysis(game.pk, alice)
    assert created
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE
    assert analysis.steps_done == analysis.steps_total == len(analysis.steps) > 10
    assert analysis.worker_seconds is not None
    for row in analysis.steps:
        assert row["mover"] in (0, 1)
        assert 0.0 <= row["after"] <= 1.0
        assert row["played_text"]
        if row["mark"]:
            assert row["drop"] >= 0.08
    assert [row["step"] for row in analysis.steps] == sorted(row["step"] for row in analysis.steps)


def test_asking_again_finds_the_same_analysis_and_costs_nothing(
    alice: User,
    bob: User,
    carol: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    game = finished_game_of(alice, bob)
    with django_capture_on_commit_callbacks(execute=False) as queued:  # type: ignore[attr-defined]
        first, created = services.request_analysis(game.pk, alice)
        again, created_again = services.request_analysis(game.pk, alice)
        by_carol, _ = services.request_analysis(game.pk, carol)
    assert created
    assert not created_again
    assert first.pk == again.pk == by_carol.pk
    assert len(queued) == 1
    assert Analysis.objects.count() == 1


def test_an_account_may_ask_for_a_few_new_analyses_an_hour(
    alice: User, bob: User, finished_game_of: Callable[..., Game]
) -> None:
    games = [finished_game_of(alice, bob, seed=seed) for seed in (1, 2, 3, 4)]
    for game in games[:3]:
        services.request_analysis(game.pk, alice)
    with pytest.raises(LimitReached, match="3 analyses in the last hour") as refused:
        services.request_analysis(games[3].pk, alice)
    assert refused.value.http_status == 429
    # What is already asked for is still answered, and another account is not held back.
    assert services.request_analysis(games[0].pk, alice)[1] is False
    assert services.request_analysis(games[3].pk, bob)[1] is True


def test_a_private_game_is_analysed_only_for_those_who_may_see_it(
    alice: User, bob: User, carol: User, finished_game_of: Callable[..., Game]
) -> None:
    game = finished_game_of(alice, bob)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    with pytest.raises(GameNotFound):
        services.request_analysis(game.pk, carol)
    assert services.request_analysis(game.pk, bob)[1] is True


def test_an_analysis_is_reproducible_from_its_seed(
    alice: User, bob: User, finished_game_of: Callable[..., Game]
) -> None:
    game = finished_game_of(alice, bob)
    analysis, _ = services.request_analysis(game.pk, alice)
    run_analysis(analysis.pk)
    analysis.refresh_from_db()
    first = analysis.steps
    Analysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.QUEUED, steps=[])
    run_analysis(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.steps == first
    assert run_analysis(analysis.pk) == "done already"


def test_a_failed_analysis_is_told_and_may_be_asked_for_again(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    game = finished_game_of(alice, bob)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the worker fell over")

    with (
        monkeypatch.context() as patched,
        django_capture_on_commit_callbacks(execute=True),  # type: ignore[attr-defined]
    ):
        patched.setattr(runner, "judge_game", broken)
        analysis, _ = services.request_analysis(game.pk, alice)
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.FAILED
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        again, created = services.request_analysis(game.pk, bob)
    assert created
    assert again.pk == analysis.pk
    again.refresh_from_db()
    assert again.status == AnalysisStatus.DONE


def test_a_running_analysis_writes_its_progress_as_it_goes(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = finished_game_of(alice, bob)
    analysis, _ = services.request_analysis(game.pk, alice)
    written: list[dict[str, object]] = []
    update = runner._update

    def watched(analysis_id: int, **fields: object) -> None:
        written.append(fields)
        update(analysis_id, **fields)

    monkeypatch.setattr(runner, "_update", watched)
    run_analysis(analysis.pk)
    total = Analysis.objects.get().steps_total
    assert written[0] == {"status": "running", "steps_done": 0, "steps_total": total}
    progress = [fields["steps_done"] for fields in written[1:-1]]
    assert progress == list(range(runner.PROGRESS_EVERY, total + 1, runner.PROGRESS_EVERY))
    assert written[-1]["status"] == "done"
