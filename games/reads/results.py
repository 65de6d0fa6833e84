"""A finished game's result as every reader gets it: the recorded result, with the way it was
won, each seat's split of points and who had run out of time, through the game's ``Ending``
(``games.variants.endings``; docs/decisions/0133-the-result-everywhere.md).

The recorded result (the ``GameFinished`` event's, kept on the game's row) says who won, the
points and cards bought, and how the engine decided; what it leaves out is read here, from the
final position's public view and the seats, for games finished before and after alike:

* ``won_by``: the way it was won, one word of the game's ``Ending`` (``colour`` beside it for
  a Duel won by 10 points in one colour);
* ``scores``: per seat, points from cards, from nobles (base game) or royals (Duel), and the
  total;
* ``timed_out``: the seats whose player had run out of time and was not back when the game
  ended (the bot played their turns; a time-out never ends a game, decision 0109).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from games import engine
from games.models import Game
from games.reads import loading
from games.variants import game_for
from games.variants.endings import in_a_list
from games.vocabulary import Status


class SeatAtTheEnd(Protocol):
    """What a seat tells of its player's time-outs (a ``Seat`` row)."""

    index: int
    is_away: bool
    timeouts_in_row: int


def result_in_full(
    variant: str,
    result: Mapping[str, Any] | None,
    seats: Iterable[SeatAtTheEnd],
    players: Sequence[Mapping[str, Any]],
) -> dict[str, Any] | None:
    """``result`` with ``won_by``, ``scores`` and ``timed_out`` (see above); ``players`` are the
    final position's players as a public view shows them. An aborted game's result, or a
    running game's none, is returned as it is."""
    if not result or result.get("aborted") or "winners" not in result:
        return None if result is None else dict(result)
    ending = game_for(variant).ending
    return {
        **result,
        **ending.won_by(result, players),
        "scores": ending.scores(players) if players else [],
        "timed_out": sorted(seat.index for seat in seats if seat.is_away or seat.timeouts_in_row),
    }


def public_players(game: Game) -> list[dict[str, Any]]:
    """The players of ``game``'s position now, as anyone may see them (no hand, no deck)."""
    state = loading.game_state(game)
    return [] if state is None else list(engine.view(state, None)["players"])


def finished_result(game: Game, seats: Iterable[SeatAtTheEnd]) -> dict[str, Any] | None:
    """``game``'s result in full (its row's, with ``seats`` its seat rows)."""
    players = public_players(game) if game.status == Status.FINISHED else []
    return result_in_full(game.variant, game.result, seats, players)


def ending_in_words(variant: str, result: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """A result in full in the few words of a list ("Won by alice — 10 crowns"); "" for a game
    without one."""
    if not result or result.get("aborted") or "won_by" not in result:
        return ""
    return in_a_list(game_for(variant).ending, result, names)
