"""The one seam per variant: what analytics must know of a game that the shared code does not.

Each variant module provides a ``VariantAnalytics``: how to fold a game's actions into facts
(who saw, reserved and bought which card, which noble visited whom) and its catalogue of cards
and nobles for the pages, and optionally its own numbers (``summary``). The shared code reaches
a variant only through ``analytics_for``: a game is one module and one line in ``_REGISTRY``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from analytics.facts import ActionFold

PlayedAction = tuple[int | None, Any, str]
"""(seat, the engine's action, the action's type as the notation spells it), as logged."""


@dataclass(frozen=True)
class NobleWords:
    """How the stats pages name a variant's nobles (Splendor Duel's are its royal cards)."""

    heading: str = "Nobles"
    one: str = "Noble"
    detail: str = "Requires"
    taken: str = "Visits"
    take_rate: str = "Visit rate"
    takers: str = "the visited"


@dataclass(frozen=True)
class VariantAnalytics:
    name: str
    fold: Callable[[Mapping[str, Any], Iterable[PlayedAction]], ActionFold]
    """(setup JSON, the actions in order) → the facts of the play."""
    cards: Callable[[], list[dict[str, Any]]]
    """Every card of the variant as a view spells it: id, level, colour, points, cost."""
    nobles: Callable[[], list[dict[str, Any]]]
    colours: tuple[str, ...]
    """The bonus colours, in the order the pages list them."""
    summary: Callable[[Mapping[tuple[str, str], int]], dict[str, Any]] | None = None
    """The variant's own numbers from its summed tallies, or none beyond the shared ones."""
    noble_words: NobleWords = NobleWords()
    bar_letters: str = "W white, B blue, G green, R red, K black"
    """The letters on the card charts' bars (``analytics.charts.LETTERS``) this variant uses."""


from analytics.variants import duel, splendor  # noqa: E402 (the modules use ``PlayedAction``)

_REGISTRY: dict[str, VariantAnalytics] = {
    "splendor": VariantAnalytics(
        "splendor", splendor.fold, splendor.cards, splendor.nobles, splendor.COLOURS
    ),
    "duel": VariantAnalytics(
        "duel",
        duel.fold,
        duel.cards,
        duel.nobles,
        duel.COLOURS,
        summary=duel.summary,
        noble_words=NobleWords(
            heading="Royal cards",
            one="Royal",
            detail="Ability",
            taken="Taken",
            take_rate="Take rate",
            takers="takers",
        ),
        bar_letters="W white, B blue, G green, R red, K black, J joker, – no bonus",
    ),
}


def analytics_for(variant: str) -> VariantAnalytics:
    try:
        return _REGISTRY[variant]
    except KeyError:
        raise LookupError(f"no analytics for variant {variant!r}") from None


def known_variants() -> tuple[str, ...]:
    return tuple(_REGISTRY)
