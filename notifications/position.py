"""The position in a mail: what one player may see, in words.

Each game's package builds its own (``games.variants.<game>.mail``), from the engine's ``view``
for that player only (as every page is), so a mail can show no card the player could not see on
the game page; this module finds the builder through the one registry of games. Each game's
templates are ``notifications/mail/position/<variant>.txt|html``; the start-up check
(``games.variants.completeness``) refuses a game without its builder or its templates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.variants import GAMES


def position_for(
    variant: str, view: Mapping[str, Any] | None, names: Sequence[str], viewer_seat: int | None
) -> dict[str, Any] | None:
    game = GAMES.get(variant)
    if game is None or view is None:
        return None
    return {"variant": variant, **game.mail_position(view, names, viewer_seat)}
