"""How a finished game ended, as each game tells it: the way it was won, the split of points,
and the few words a list of games gives it (docs/decisions/0133-the-result-everywhere.md).

A game's package provides an :class:`Ending` in its ``Game``; ``games.reads.results`` puts the
recorded result (the ``GameFinished`` event's) together with it for every reader: the game
page, the lists, My games and the API. Everything here reads the recorded result and the final
position's public players, so nothing hidden can reach a result.

What both games share is here: a resignation, a shared win and a seat the bot played after
time-outs read the same in either game; each game words only its own ways to win.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.variants.words import in_a_list as listed

RESIGNATION = "resignation"
"""``won_by`` when every other player resigned (or, with more players, some did and the rest
were ranked by points): the same word in every game."""

WayWords = Callable[[Mapping[str, Any], Sequence[str]], str]
"""(the result in full, every seat's name) -> how the winner won, after "Won by <name> — "."""


@dataclass(frozen=True, kw_only=True)
class Ending:
    """One game's ways to win, its split of points, and their words."""

    ways: Mapping[str, WayWords]
    """Every ``won_by`` word of this game but ``resignation`` (which all games share), each with
    its few words for a list: "10 crowns"."""
    won_by: Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]]], dict[str, Any]]
    """(the recorded result, the final position's public players) -> ``{"won_by": word}``,
    with what the way names, if anything (the colour of 10 points in one colour)."""
    points_besides_cards: str
    """What gives points besides cards, as the split names it: "nobles", "royals"."""
    scores: Callable[[Sequence[Mapping[str, Any]]], list[dict[str, int]]]
    """(the final position's public players) -> per seat ``{"seat", "cards",
    <points_besides_cards>, "total"}``."""

    @property
    def every_way(self) -> tuple[str, ...]:
        """Every word ``won_by`` can be in this game."""
        return (*self.ways, RESIGNATION)


def split_of_points(
    players: Sequence[Mapping[str, Any]], besides_cards: str
) -> list[dict[str, int]]:
    """Each seat's points from its cards and from the tiles named ``besides_cards`` (nobles,
    royals), and its total, as a public view of the final position shows them."""
    scores = []
    for seat, player in enumerate(players):
        cards = sum(card["points"] for card in player["cards"])
        tiles = sum(tile["points"] for tile in player[besides_cards])
        scores.append(
            {"seat": seat, "cards": cards, besides_cards: tiles, "total": player["points"]}
        )
    return scores


def in_a_list(ending: Ending, result: Mapping[str, Any], names: Sequence[str]) -> str:
    """A finished game's result in the few words of a list: "Won by alice — 10 crowns",
    "Won by alice — bob resigned", "Shared by alice and bob — tied on 15 points and 4 cards";
    then who ran out of time and was not back by the end ("bob timed out")."""
    winners = [names[seat] for seat in result.get("winners", ())]
    way = result.get("won_by", "")
    won = f"{'Shared' if len(winners) > 1 else 'Won'} by {listed(winners)}"
    if way == RESIGNATION:
        words = f"{won} — {listed([names[seat] for seat in result.get('resigned', ())])} resigned"
    elif way in ending.ways:
        words = f"{won} — {ending.ways[way](result, names)}"
    else:
        words = won if winners else "No winner"
    timed_out = [names[seat] for seat in result.get("timed_out", ())]
    if timed_out:
        words += f"; {listed(timed_out)} timed out"
    return words
