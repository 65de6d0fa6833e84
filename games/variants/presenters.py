"""One presenter per variant: how its actions read, what they bring about, how its board draws.

Everything outside a variant's own modules that must draw a board or put a move into words (the
game page, the history, the replay viewer, the text export) asks :func:`presenter_for` with the
game's variant, so a new game (Splendor Duel) is a new module and one line in ``PRESENTERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.variants.duel import presenter as duel
from games.variants.splendor import presenter as splendor


@dataclass(frozen=True)
class Presenter:
    variant: str
    describe_action: Callable[[Mapping[str, Any]], str]
    """An action in words, without its subject: "took white, blue and red"."""
    consequences: Callable[[Any, Any, int | None], list[dict[str, Any]]]
    """(state before, state after, the acting seat) -> what the action brought about by
    itself, e.g. ``{"kind": "noble_visit", "seat": 0, "noble": 3, "points": 3}``. Only public
    facts: every viewer reads them."""
    table: Callable[..., dict[str, dict[str, Any]]]
    """The board's regions for one viewer, as ``games.variants.splendor.table.table_for_viewer``
    builds them."""
    board_template: str
    """The template that draws those regions without any control (the replay viewer's)."""


PRESENTERS: dict[str, Presenter] = {
    "splendor": Presenter(
        variant="splendor",
        describe_action=splendor.describe_action,
        consequences=splendor.consequences,
        table=splendor.table,
        board_template="games/replay/board_splendor.html",
    ),
    "duel": Presenter(
        variant="duel",
        describe_action=duel.describe_action,
        consequences=duel.consequences,
        table=duel.table,
        board_template="games/replay/board_duel.html",
    ),
}


def presenter_for(variant: str) -> Presenter:
    try:
        return PRESENTERS[variant]
    except KeyError:
        raise ValueError(f"no presenter for variant {variant!r}") from None
