"""The one registry of games: ``GAMES``, every game the site offers by variant, and its reads.

Each game is an engine package behind ``games.engine`` and a package here,
``games.variants.<game>``, that exports its one ``GAME`` (``games.variants.base.Game``: words,
its ending, presenter and table, page forms, API actions, bots, analytics facts, mail position,
templates).
Services, selectors, pages, the API, history, mail and analytics reach a game only through
``GAMES`` and the reads below, keyed by the game's variant; none of them names a variant. A new
game is an engine package, a package here and one line in ``GAMES``; the start-up check
(``games.variants.completeness``) names any part it lacks.

Besides the game packages this folder holds what they build on: ``base`` (the ``Game``),
``words`` (words every game shares), ``endings`` (how a finished game ended),
``table_common``, ``play_facts`` (the analytics shapes), ``json_fields`` and ``action_schema``
(reading and documenting API actions); and ``completeness``, the start-up check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rest_framework import serializers

from games import bots, engine
from games.errors import InvalidRequest
from games.variants import duel, splendor
from games.variants.base import Game
from games.variants.words import event_in_words

GAMES: dict[str, Game] = {
    splendor.GAME.variant: splendor.GAME,
    duel.GAME.variant: duel.GAME,
}
"""Every game the site offers, the base game first."""


def game_for(variant: str) -> Game:
    """The game ``variant``; raises ``InvalidRequest`` for a game the site does not offer."""
    game = GAMES.get(variant)
    if game is None:
        raise InvalidRequest(f"Unknown variant {variant!r}.")
    return game


def offered() -> Sequence[Game]:
    """Every game the site offers, the base game first."""
    return tuple(GAMES.values())


def describe_action(action: Mapping[str, Any], *, variant: str) -> str:
    """An action in the words of its game, without its subject: "took white, blue and red"."""
    return game_for(variant).describe_action(action)


def describe_event(event: Mapping[str, Any], names: Sequence[str], *, variant: str) -> str:
    """One past event of a ``variant`` game as a sentence (``games.variants.words``).

    ``variant`` is the game's: each game puts its actions in its own words (no default, so
    that no caller can put a Duel move in the base game's words, as turn mail once did).
    """
    return event_in_words(event, names, describe_action=game_for(variant).describe_action)


def parse_api_action(data: Any, variant_of: Callable[[], str | None]) -> dict[str, Any]:
    """An API action body, its shape checked as the schema states it: an action of any game.

    Each game's reader is asked in turn, the base game's first, without reading the game: a
    body one of them takes goes on to the service, where the game's own engine judges it (and
    refuses another game's action as illegal there). A body no game reads is malformed for
    every game id alike; only then is the game's variant looked up (``variant_of``; None: no
    such game), so that the refusal gives the reasons of the game it was sent to.
    """
    refusals: dict[str, serializers.ValidationError] = {}
    for game in offered():
        try:
            return game.parse_api_action(data)
        except serializers.ValidationError as refusal:
            refusals[game.variant] = refusal
    variant = variant_of()
    raise refusals.get(variant or "", next(iter(refusals.values())))


def choose_bot_action(
    level: str,
    view: Mapping[str, Any],
    *,
    seed: int,
    budget_seconds: float | None = None,
    iterations: int | None = None,
) -> engine.Action:
    """The action the bot of ``level`` takes in ``view``, the acting seat's own view, by the
    bots of the view's game (``games.bots.choose_action`` says what it refuses)."""
    game = GAMES.get(view.get("variant", "")) if isinstance(view, Mapping) else None
    return bots.choose_action(
        game.bots if game is not None else {},
        level,
        view,
        seed=seed,
        budget_seconds=budget_seconds,
        iterations=iterations,
    )
