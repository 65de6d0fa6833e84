"""Running an analysis: every move of a finished game judged, the result stored.

The task's body (``analysis.tasks.analyse_game``). Idempotent: a done analysis is left as it is;
a redelivered one is computed again from its seed, to the same result.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.utils import timezone

from analysis.evaluation import MoveJudged, judge_game, moves_to_judge
from analysis.models import Analysis, AnalysisStatus
from games.models import Game
from games.reads.timeline import finished_game_timeline
from games.variants import describe_action

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 5
"""Moves judged between two progress writes: the page shows steps done of steps."""


def run_analysis(analysis_id: int) -> str:
    """Judge every move of the analysis's game and store the result."""
    analysis = Analysis.objects.filter(pk=analysis_id).first()
    if analysis is None:
        return "missing"
    if analysis.status == AnalysisStatus.DONE:
        return "done already"
    started = time.thread_time()
    try:
        game = Game.objects.get(pk=analysis.game_id)
        timeline = finished_game_timeline(game)
        states = timeline.states
        actions = timeline.log.actions
        total = moves_to_judge(actions)
        _update(analysis_id, status=AnalysisStatus.RUNNING, steps_done=0, steps_total=total)

        def progress(done: int) -> None:
            if done % PROGRESS_EVERY == 0:
                _update(analysis_id, steps_done=done)

        judged = judge_game(
            game.variant,
            states,
            actions,
            seed=analysis.seed,
            budget=analysis.budget,
            progress=progress,
        )
    except Exception:
        logger.exception("analysis %s of game %s failed", analysis_id, analysis.game_id)
        _update(analysis_id, status=AnalysisStatus.FAILED, finished_at=timezone.now())
        return "failed"
    _update(
        analysis_id,
        status=AnalysisStatus.DONE,
        steps_done=len(judged),
        steps=[step_row(move, game.variant) for move in judged],
        worker_seconds=round(time.thread_time() - started, 3),
        finished_at=timezone.now(),
    )
    return "done"


def step_row(move: MoveJudged, variant: str) -> dict[str, Any]:
    """One judged move as stored and as the API shows it: public facts of a finished game
    and the analysis's estimates, nothing of what the mover could not see."""
    preferred = None if move.played_is_preferred else move.preferred
    return {
        "step": move.step,
        "mover": move.mover,
        "before": round(move.before, 3),
        "after": round(move.after, 3),
        "drop": round(move.drop, 3),
        "mark": move.mark,
        "played": move.played,
        "played_text": describe_action(move.played, variant=variant),
        "preferred": preferred,
        "preferred_text": describe_action(preferred, variant=variant) if preferred else "",
    }


def _update(analysis_id: int, **fields: Any) -> None:
    Analysis.objects.filter(pk=analysis_id).update(**fields)
