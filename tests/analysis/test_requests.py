"""Asking for an analysis: finished games only, idempotent, capped per account, run in order."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from analysis import evaluation, runner, services
from analysis.models import Analysis, AnalysisStatus
from analysis.runner import run_analysis
from analysis.tasks import analyse_game
from games.commands import game_news
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


def test_a_running_analysis_writes_its_progress_and_tells_the_games_pages(
    alice: User, bob: User, finished_game_of: Callable[..., Game]
) -> None:
    game = finished_game_of(alice, bob)
    analysis, _ = services.request_analysis(game.pk, alice)
    heard: list[tuple[int, str, str, int]] = []

    def listen(*, game_id: int, kind: str, data: str, **_signal: object) -> None:
        # What the page would fetch on hearing the news is already written.
        heard.append((game_id, kind, data, Analysis.objects.get().steps_done))

    game_news.game_news.connect(listen)
    try:
        run_analysis(analysis.pk)
    finally:
        game_news.game_news.disconnect(listen)

    total = Analysis.objects.get().steps_total
    assert {(game_id, kind) for game_id, kind, _, _ in heard} == {(game.pk, "analysis")}
    expected = [0, *range(runner.PROGRESS_EVERY, total + 1, runner.PROGRESS_EVERY)]
    assert [data for _, _, data, _ in heard[:-1]] == [f"running {n}/{total}" for n in expected]
    assert [stored for _, _, _, stored in heard[:-1]] == expected
    assert heard[-1][2:] == (f"done {total}/{total}", total)


def _stall(analysis: Analysis, status: str, *, seconds_ago: float) -> None:
    """The analysis as a worker left it ``seconds_ago``, twenty moves in."""
    Analysis.objects.filter(pk=analysis.pk).update(
        status=status,
        steps_done=20 if status == "running" else 0,
        steps_total=71,
        progress_at=timezone.now() - timedelta(seconds=seconds_ago),
    )


@pytest.mark.parametrize("status", ["running", "queued"])
def test_an_analysis_whose_worker_went_silent_is_restarted_by_the_next_request(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: Callable[..., object],
    settings: Any,
    status: str,
) -> None:
    game = finished_game_of(alice, bob)
    with django_capture_on_commit_callbacks(execute=False):  # type: ignore[attr-defined]
        analysis, _ = services.request_analysis(game.pk, alice)  # its message is lost
    _stall(analysis, status, seconds_ago=settings.ANALYSIS_STALLED_AFTER_SECONDS + 1)
    analysis.refresh_from_db()
    assert analysis.is_stalled()

    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        again, restarted = services.request_analysis(game.pk, bob)

    assert restarted
    assert again.pk == analysis.pk
    again.refresh_from_db()
    assert again.status == AnalysisStatus.DONE
    assert again.attempt == analysis.attempt + 1
    assert again.requested_by == alice  # a restart is no new request: bob's cap is untouched
    # The first attempt's message, delivered at last, finds itself replaced and writes nothing.
    assert run_analysis(analysis.pk, analysis.attempt) == "done already"
    Analysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.QUEUED)
    assert run_analysis(analysis.pk, analysis.attempt) == "replaced"


@pytest.mark.parametrize("status", ["running", "queued"])
def test_an_analysis_under_way_is_waited_for_not_started_twice(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    django_capture_on_commit_callbacks: Callable[..., object],
    settings: Any,
    status: str,
) -> None:
    game = finished_game_of(alice, bob)
    with django_capture_on_commit_callbacks(execute=False):  # type: ignore[attr-defined]
        analysis, _ = services.request_analysis(game.pk, alice)
    _stall(analysis, status, seconds_ago=settings.ANALYSIS_STALLED_AFTER_SECONDS - 30)

    with django_capture_on_commit_callbacks(execute=False) as queued:  # type: ignore[attr-defined]
        again, restarted = services.request_analysis(game.pk, bob)

    assert not restarted
    assert queued == []
    again.refresh_from_db()
    assert (again.status, again.attempt) == (status, analysis.attempt)
    assert not again.is_stalled()


def test_a_second_delivery_leaves_a_live_run_alone_and_takes_over_a_dead_ones(
    alice: User, bob: User, finished_game_of: Callable[..., Game], settings: Any
) -> None:
    game = finished_game_of(alice, bob)
    analysis, _ = services.request_analysis(game.pk, alice)
    _stall(analysis, "running", seconds_ago=1)

    assert run_analysis(analysis.pk, analysis.attempt) == "skipped"
    assert Analysis.objects.get().steps_done == 20

    # The broker hands the message out again after its worker died: the run is stalled by then.
    _stall(analysis, "running", seconds_ago=settings.ANALYSIS_STALLED_AFTER_SECONDS + 1)
    assert run_analysis(analysis.pk, analysis.attempt) == "done"
    assert Analysis.objects.get().status == AnalysisStatus.DONE


def test_a_run_left_behind_by_a_restart_stops_at_its_next_progress(
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = finished_game_of(alice, bob)
    analysis, _ = services.request_analysis(game.pk, alice)
    judge = evaluation.judge_game

    def restarted_meanwhile(*args: Any, **kwargs: Any) -> Any:
        # While this run judges, a request finds it stalled and queues the next attempt.
        Analysis.objects.filter(pk=analysis.pk).update(
            status=AnalysisStatus.QUEUED, attempt=analysis.attempt + 1, steps_done=0
        )
        return judge(*args, **kwargs)

    monkeypatch.setattr(runner, "judge_game", restarted_meanwhile)
    assert run_analysis(analysis.pk, analysis.attempt) == "replaced"
    left = Analysis.objects.get()
    assert (left.status, left.steps_done, left.steps) == (AnalysisStatus.QUEUED, 0, [])


def test_the_task_settings_agree_with_the_stall_rule(settings: Any) -> None:
    """Late acknowledgement (a dead worker's message comes back), no redelivery loop on a
    worker lost, and every limit below the broker's visibility timeout."""
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert analyse_game.acks_late
    assert not analyse_game.reject_on_worker_lost
    assert analyse_game.soft_time_limit < analyse_game.time_limit < visibility
    assert 0 < settings.ANALYSIS_STALLED_AFTER_SECONDS < visibility
