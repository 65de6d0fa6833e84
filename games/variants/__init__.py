"""The one seam between the shared web layers and each game (design.md, "One seam for every game").

Every game the site offers is an engine package behind ``games.engine``, a presenter in
``games.variants.presenters`` (its words and its table: what history, replays and exports need)
and one module here that gives how its page's forms and the API's action bodies are read, the
templates that draw its running game, and its seat bounds. Views and the API reach a game only
through :func:`web_for` and ``presenter_for``, keyed by the game's variant; none of them names
a variant. A new game is an engine package, a presenter and one module here, one line each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from rest_framework import serializers

from games import engine
from games.errors import InvalidRequest


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
    action_from_form: Callable[[QueryDict], tuple[dict[str, Any], int, str]]
    """A posted move: (action JSON, expected version, idempotency key); ``InvalidRequest``."""
    parse_api_action: Callable[[Any], dict[str, Any]]
    """An API action body, its shape checked; raises DRF's ``ValidationError``."""
    action_schema: Any
    """The OpenAPI schema of those bodies (``games.api.action_schema.GameActionsSchema``)."""
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


def parse_api_action(data: Any, variant_of: Callable[[], str | None]) -> dict[str, Any]:
    """An API action body, its shape checked as the schema states it: an action of any game.

    Each game's reader is asked in turn, the base game's first, without reading the game: a
    body one of them takes goes on to the service, where the game's own engine judges it (and
    refuses another game's action as illegal there). A body no game reads is malformed for
    every game id alike; only then is the game's variant looked up (``variant_of``; None: no
    such game), so that the refusal gives the reasons of the game it was sent to.
    """
    refusals: dict[str, serializers.ValidationError] = {}
    for web in offered():
        try:
            return web.parse_api_action(data)
        except serializers.ValidationError as refusal:
            refusals[web.variant] = refusal
    variant = variant_of()
    raise refusals.get(variant or "", next(iter(refusals.values())))


def offered() -> Sequence[GameWeb]:
    """Every game the site offers, the base game first."""
    return tuple(_registry().values())


def _registry() -> dict[str, GameWeb]:
    # Imported on first use: the game modules import the shared helpers, which import this.
    from games.variants.duel import web as duel
    from games.variants.splendor import web as splendor

    return {splendor.WEB.variant: splendor.WEB, duel.WEB.variant: duel.WEB}
