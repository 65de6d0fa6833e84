"""Reading analyses: one game's for a viewer, and a player's marked moves across games.

A viewer reads an analysis only of a game they may see and only once it is finished, the same
rules as asking for one (``analysis.services.analysable_game``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from analysis.budget import ANALYSIS_VERSION, settings_for, settings_key
from analysis.models import Analysis, AnalysisStatus
from analysis.services import analysable_game
from games.models import Game, Seat
from games.reads.access import Viewer, visible_to
from games.reads.game_view import seats_json
from games.vocabulary import Status

RECENT_ANALYSED_GAMES = 10
"""How many of a player's latest analysed games their page lists marked moves from."""


def current_analysis(game: Game) -> Analysis | None:
    """The game's analysis at this version and the settings of now, if one was asked for."""
    key = settings_key(settings_for(game.variant))
    return Analysis.objects.filter(game=game, version=ANALYSIS_VERSION, settings_key=key).first()


def analysis_for_viewer(game_id: int, viewer: Viewer) -> tuple[Game, Analysis | None]:
    """The finished game ``viewer`` may see and its current analysis (None: not asked for)."""
    game = analysable_game(game_id, viewer)
    return game, current_analysis(game)


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """An analysis as the API shows it: its progress, budget and judged moves. Its seed stays
    with the server (it reproduces the analysis; nobody needs it to read one)."""
    return {
        "game": analysis.game_id,
        "status": analysis.status,
        "version": analysis.version,
        "budget": analysis.budget,
        "steps_done": analysis.steps_done,
        "steps_total": analysis.steps_total,
        "stalled": analysis.is_stalled(),
        "worker_seconds": analysis.worker_seconds,
        "requested_at": analysis.requested_at,
        "finished_at": analysis.finished_at,
        "steps": analysis.steps if analysis.status == AnalysisStatus.DONE else [],
    }


def seat_names(game: Game) -> list[str]:
    seats = seats_json(Seat.objects.filter(game=game).select_related("user__profile"))
    return [seat["display_name"] or f"Seat {seat['index'] + 1}" for seat in seats]


@dataclass(frozen=True)
class MarkedMove:
    game_id: int
    variant: str
    step: int
    mark: str
    played_text: str
    preferred_text: str
    before: float
    after: float


def marked_moves_of(player: AbstractBaseUser, viewer: Viewer) -> list[MarkedMove]:
    """``player``'s marked moves in their latest analysed games that ``viewer`` may see,
    newest game first, each game's moves in order."""
    seats = dict(
        Seat.objects.filter(user=player, game__status=Status.FINISHED).values_list(
            "game_id", "index"
        )
    )
    if not seats:
        return []
    visible = Game.objects.filter(visible_to(viewer), pk__in=list(seats)).values("pk")
    analyses = (
        Analysis.objects.filter(
            game_id__in=visible, status=AnalysisStatus.DONE, version=ANALYSIS_VERSION
        )
        .select_related("game")
        .order_by("-finished_at")[:RECENT_ANALYSED_GAMES]
    )
    moves = []
    shown: set[int] = set()
    for analysis in analyses:
        if analysis.game_id in shown:  # an older budget's analysis of the same game
            continue
        shown.add(analysis.game_id)
        seat = seats[analysis.game_id]
        for step in analysis.steps:
            if step["mover"] == seat and step["mark"]:
                moves.append(
                    MarkedMove(
                        game_id=analysis.game_id,
                        variant=analysis.game.variant,
                        step=step["step"],
                        mark=step["mark"],
                        played_text=step["played_text"],
                        preferred_text=step["preferred_text"],
                        before=step["before"],
                        after=step["after"],
                    )
                )
    return moves
