"""Asking for an analysis: with ``analysis.runner``, the only writers of ``Analysis``.

A request is idempotent: the same game, analysis version and settings find the analysis already
asked for (queued, running or done) rather than a second one; only a new analysis counts against
the account's hourly cap (``ANALYSIS_REQUESTS_PER_HOUR``). A game that is not finished is refused
everywhere (``GameNotOver``): no engine assistance while a game can still be played.

An analysis that stalled (``Analysis.is_stalled``: no word from a worker for
``ANALYSIS_STALLED_AFTER_SECONDS``) is restarted by the next request, as its next attempt, free:
the request did not fail, the worker did. One that is really under way is only waited for.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from analysis import tasks
from analysis.budget import ANALYSIS_VERSION, settings_for, settings_key
from analysis.models import Analysis, AnalysisStatus
from games.commands.limits import lock_account
from games.commands.task_queue import enqueue
from games.errors import GameNotFound, GameNotOver, LimitReached
from games.models import Game
from games.reads import loading
from games.reads.access import Viewer, can_view
from games.vocabulary import Status


def analysable_game(game_id: int, viewer: Viewer) -> Game:
    """The game, if ``viewer`` may see it and it is finished: else the same 404 as a missing
    game, or ``GameNotOver`` (409) for a game that can still be played."""
    game = loading.game_get(game_id)
    if not can_view(game, viewer):
        raise GameNotFound(f"There is no game {game_id}.")
    if game.status != Status.FINISHED:
        raise GameNotOver(
            f"Game {game_id} is not finished: only a finished game can be analysed, so that "
            "nobody gets the engine's help while a game can still be played."
        )
    return game


def current_settings(game: Game) -> tuple[dict[str, Any], str]:
    budget = settings_for(game.variant)
    return budget, settings_key(budget)


def request_analysis(game_id: int, user: AbstractBaseUser) -> tuple[Analysis, bool]:
    """The game's analysis at the current version and settings, queued if new, failed or
    stalled (True) or as it already is (False). Past the account's hourly cap, a new one (or a
    failed one asked for again) is refused (429)."""
    game = analysable_game(game_id, user)
    budget, key = current_settings(game)
    with transaction.atomic():
        lock_account(user)
        # Locked: of two requests that find it stalled, the second finds it restarted.
        existing = (
            Analysis.objects.select_for_update()
            .filter(game=game, version=ANALYSIS_VERSION, settings_key=key)
            .first()
        )
        if existing is not None and existing.is_stalled():
            analysis = existing
            _requeue(analysis)
        elif existing is not None and existing.status != AnalysisStatus.FAILED:
            return existing, False
        elif existing is not None:
            _check_request_cap(user)
            analysis = existing
            analysis.requested_by = user  # type: ignore[assignment]
            analysis.requested_at = timezone.now()
            _requeue(analysis)
        else:
            _check_request_cap(user)
            analysis, created = Analysis.objects.get_or_create(
                game=game,
                version=ANALYSIS_VERSION,
                settings_key=key,
                defaults={"budget": budget, "seed": new_seed(), "requested_by": user},
            )
            if not created:
                return analysis, False
        analysis_id, attempt = analysis.pk, analysis.attempt
        transaction.on_commit(lambda: _queue(analysis_id, attempt))
    return analysis, True


def _requeue(analysis: Analysis) -> None:
    """Queue ``analysis`` again from the start, as its next attempt: a run still holding an
    older one can no longer write (``analysis.runner``)."""
    analysis.status = AnalysisStatus.QUEUED
    analysis.steps_done = 0
    analysis.attempt += 1
    analysis.progress_at = timezone.now()
    analysis.finished_at = None
    analysis.save()


def new_seed() -> int:
    """A fresh analysis's seed: kept with it, so that it can be computed again alike."""
    return secrets.randbits(62)


def _check_request_cap(user: AbstractBaseUser) -> None:
    most = settings.ANALYSIS_REQUESTS_PER_HOUR
    lately = Analysis.objects.filter(
        requested_by=user, requested_at__gte=timezone.now() - timedelta(hours=1)
    ).count()
    if lately >= most:
        raise LimitReached(
            f"You asked for {lately} analyses in the last hour, the most an account may: "
            "try again later (an analysis already made stays open to everyone who may see "
            "its game).",
            limit=most,
        )


def _queue(analysis_id: int, attempt: int) -> None:
    enqueue(tasks.analyse_game, analysis_id, attempt)
