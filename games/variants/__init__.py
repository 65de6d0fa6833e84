"""The one seam between the shared web layers and each game (design.md, "One seam for every game").

Every game the site offers is an engine package behind ``games.engine`` plus one module here
that gives its presenter (the table of the game page), its words (actions in sentences), how
its page's forms and the API's action bodies are read, and the templates that draw it. Views,
the API and history reach a game only through :func:`web_for`, keyed by the game's variant;
none of them names a variant. A new game is an engine package, one module here and one line in
:data:`_REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from games import engine
from games.errors import InvalidRequest

Table = Callable[..., dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class GameWeb:
    """What the web layers need to know of one game, besides its engine."""

    variant: str
    title: str
    blurb: str
    table_template: str
    """Draws every region of a running game's page (``regions``) in its layout."""
    partials: str
    """The folder of the region templates, one ``<name>.html`` per region."""
    table_for_viewer: Table
    """``(data, events, *, seen_cards, notices)``: the context of every region, with digests."""
    describe_action: Callable[[Mapping[str, Any]], str]
    """An action of this game in words, without its subject: "took two red"."""
    action_from_form: Callable[[QueryDict], tuple[dict[str, Any], int, str]]
    """A posted move: (action JSON, expected version, idempotency key); ``InvalidRequest``."""
    parse_api_action: Callable[[Any], dict[str, Any]]
    """An API action body, its shape checked; raises DRF's ``ValidationError``."""
    remember_turn: Callable[..., tuple[Any, set[int] | None]]
    """(memory, data) -> (memory to keep, face-up cards already seen, or None)."""

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return engine.seat_counts(self.variant)


def web_for(variant: str) -> GameWeb:
    """The web side of ``variant``; raises ``InvalidRequest`` for a game the site does not offer."""
    web = _registry().get(variant)
    if web is None:
        raise InvalidRequest(f"Unknown variant {variant!r}.")
    return web


def offered() -> Sequence[GameWeb]:
    """Every game the site offers, the base game first."""
    return tuple(_registry().values())


def _registry() -> dict[str, GameWeb]:
    # Imported on first use: the game modules import the shared helpers, which import this.
    from games.variants import duel, splendor

    return {splendor.WEB.variant: splendor.WEB, duel.WEB.variant: duel.WEB}
