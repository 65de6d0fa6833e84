"""Running an analysis: every move of a finished game judged, the result stored.

The task's body (``analysis.tasks.analyse_game``). Idempotent: a done analysis is left as it is;
a redelivered one is computed again from its seed, to the same result.

A run first claims its analysis: the attempt it was queued for, still queued, or running with no
word for ``ANALYSIS_STALLED_AFTER_SECONDS`` (the broker's redelivery after its worker died). So
two deliveries of one message never run side by side, and a message of an attempt that a request
has since restarted (``analysis.services``) is dropped. Each write is of that attempt only: a
worker left behind (stopped, not dead) learns at its next progress that it was replaced, and
stops. Every write is announced to the game's open pages (``games.commands.game_news``), which
fetch the panel again: the progress and the result arrive without polling.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db.models import Q
from django.utils import timezone

from analysis.evaluation import MoveJudged, judge_game, moves_to_judge
from analysis.models import Analysis, AnalysisStatus, stalled_before
from games.commands.game_news import announce_game_news
from games.models import Game
from games.reads.timeline import finished_game_timeline
from games.variants import describe_action

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 5
"""Moves judged between two progress writes: the page shows steps done of steps."""
NEWS_KIND = "analysis"
"""The name of the stream's event that tells a game's pages its analysis moved on."""


class Replaced(Exception):
    """The analysis was restarted under a newer attempt while this run went on."""


def run_analysis(analysis_id: int, attempt: int | None = None) -> str:
    """Judge every move of the analysis's game and store the result, as run ``attempt`` (None:
    whichever attempt is current, as a message queued before attempts were counted)."""
    analysis = Analysis.objects.filter(pk=analysis_id).first()
    if analysis is None:
        return "missing"
    if analysis.status == AnalysisStatus.DONE:
        return "done already"
    attempt = analysis.attempt if attempt is None else attempt
    if not _claim(analysis_id, attempt):
        # Running fresh under another delivery, failed, or restarted as a newer attempt.
        return "skipped" if analysis.attempt == attempt else "replaced"
    run = _Run(analysis_id, analysis.game_id, attempt)
    try:
        _judge_and_store(run, analysis)
    except Replaced:
        logger.info("analysis %s attempt %s was replaced by a newer one", analysis_id, attempt)
        return "replaced"
    except Exception:
        logger.exception("analysis %s of game %s failed", analysis_id, analysis.game_id)
        try:
            run.write(status=AnalysisStatus.FAILED, finished_at=timezone.now())
        except Replaced:
            return "replaced"
        return "failed"
    return "done"


def _judge_and_store(run: _Run, analysis: Analysis) -> None:
    """Judge the game's moves, writing progress as they go, then the result and its CPU time."""
    started = time.thread_time()
    game = Game.objects.get(pk=analysis.game_id)
    timeline = finished_game_timeline(game)
    actions = timeline.log.actions
    run.write(steps_done=0, steps_total=moves_to_judge(actions))

    def progress(done: int) -> None:
        if done % PROGRESS_EVERY == 0:
            run.write(steps_done=done)

    judged = judge_game(
        game.variant,
        timeline.states,
        actions,
        seed=analysis.seed,
        budget=analysis.budget,
        progress=progress,
    )
    run.write(
        status=AnalysisStatus.DONE,
        steps_done=len(judged),
        steps=[step_row(move, game.variant) for move in judged],
        worker_seconds=round(time.thread_time() - started, 3),
        finished_at=timezone.now(),
    )


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


def _claim(analysis_id: int, attempt: int) -> bool:
    """Take the analysis for this run: one UPDATE, so of two deliveries only one gets it."""
    now = timezone.now()
    claimable = Q(status=AnalysisStatus.QUEUED) | Q(
        status=AnalysisStatus.RUNNING, progress_at__lt=stalled_before(now)
    )
    return bool(
        Analysis.objects.filter(claimable, pk=analysis_id, attempt=attempt).update(
            status=AnalysisStatus.RUNNING, steps_done=0, progress_at=now
        )
    )


class _Run:
    """One claimed run's writes: of its attempt only, each stamped and announced."""

    def __init__(self, analysis_id: int, game_id: int, attempt: int) -> None:
        self.analysis_id = analysis_id
        self.game_id = game_id
        self.attempt = attempt
        self.steps_total = 0

    def write(self, **fields: Any) -> None:
        """Store ``fields`` (raises ``Replaced`` if a newer attempt took over), then tell the
        game's pages: ``running 5/40``, ``done 40/40``, ``failed``."""
        written = Analysis.objects.filter(
            pk=self.analysis_id, attempt=self.attempt, status=AnalysisStatus.RUNNING
        ).update(progress_at=timezone.now(), **fields)
        if not written:
            raise Replaced
        self.steps_total = fields.get("steps_total", self.steps_total)
        status = fields.get("status", AnalysisStatus.RUNNING)
        done = fields.get("steps_done")
        news = str(status) if done is None else f"{status} {done}/{self.steps_total}"
        announce_game_news(game_id=self.game_id, kind=NEWS_KIND, data=news)
