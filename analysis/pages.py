"""What the replay page and a player's page show of analyses, as template contexts.

Built here, shown by ``analysis.templatetags.analysis`` (the hooks the games' templates call)
and ``analysis.views`` (the panel fetched again each time the game's push stream says the
analysis moved on).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from analysis import graph
from analysis.models import Analysis, AnalysisStatus
from analysis.selectors import current_analysis, marked_moves_of, seat_names
from games.reads import loading
from games.reads.access import Viewer, can_view
from games.vocabulary import Status

MARK_LABELS = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


def panel_context(game_id: int, viewer: Viewer) -> dict[str, Any]:
    """The analysis panel of a replay: a request button, the progress, or the graph and marks.
    Nothing (``shown`` false) for a game that is not finished or that the viewer may not see.

    While the analysis is under way (``listening``), the panel listens to the game's push stream
    from the version the page shows; a stalled one offers the request button again."""
    game = loading.game_get(game_id)
    if game.status != Status.FINISHED or not can_view(game, viewer):
        return {"shown": False}
    analysis = current_analysis(game)
    stalled = analysis is not None and analysis.is_stalled()
    context: dict[str, Any] = {
        "shown": True,
        "game_id": game.pk,
        "game_version": game.version,
        "analysis": analysis,
        "signed_in": viewer is not None and viewer.is_authenticated,
        "stalled": stalled,
        "listening": analysis is not None and analysis.is_pending and not stalled,
        "can_request": analysis is None or analysis.status == AnalysisStatus.FAILED or stalled,
    }
    if analysis is not None and analysis.status == AnalysisStatus.DONE:
        names = seat_names(game)
        context.update(
            charts=graph.charts(analysis.steps, names, _span(analysis)),
            axes=graph.AXES,
            marked=[_marked(step, names) for step in analysis.steps if step["mark"]],
        )
    return context


def step_context(game_id: int, step: int, viewer: Viewer) -> dict[str, Any]:
    """The analysis of the move that made ``step``, for the replay's stage: the chances, and at
    a marked move the move the analysis prefers, with the fork to try it."""
    game = loading.game_get(game_id)
    if game.status != Status.FINISHED or not can_view(game, viewer):
        return {"shown": False}
    analysis = current_analysis(game)
    if analysis is None or analysis.status != AnalysisStatus.DONE:
        return {"shown": False}
    judged = next((row for row in analysis.steps if row["step"] == step), None)
    if judged is None:
        return {"shown": False}
    names = seat_names(game)
    return {"shown": True, "game_id": game.pk, "move": _marked(judged, names)}


def mistakes_context(player: AbstractBaseUser, viewer: Viewer) -> dict[str, Any]:
    moves = marked_moves_of(player, viewer)
    is_self = viewer is not None and viewer.is_authenticated and viewer.pk == player.pk
    return {
        "player": player,
        "is_self": is_self,
        "moves": [{**move.__dict__, "label": MARK_LABELS[move.mark]} for move in moves],
    }


def _span(analysis: Analysis) -> int:
    # The game's last step is the end that follows its last move.
    return max((row["step"] for row in analysis.steps), default=0) + 1


def _marked(row: dict[str, Any], names: list[str]) -> dict[str, Any]:
    mover = row["mover"]
    return {
        **row,
        "name": names[mover] if mover < len(names) else f"Seat {mover + 1}",
        "label": MARK_LABELS.get(row["mark"] or "", ""),
        "before_percent": round(row["before"] * 100),
        "after_percent": round(row["after"] * 100),
        "fork_step": row["step"] - 1,
    }
