"""Pure move choosers over the engine: the bots a seat can be given.

A bot sees exactly what a human in its seat sees: the dict of ``games.engine.view(state, seat)``
(design.md, "Hidden information"). It never receives the state. Every bot is deterministic
given its seed; the search bot also needs its budget to be counted in iterations for that (a
time budget depends on the machine's speed).

    action = choose_action("search", view, seed=42, budget_seconds=0.25)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from games.bots import greedy, random_bot, search
from games.bots.duel import greedy as duel_greedy
from games.bots.duel import search as duel_search
from games.bots.duel.determinize import DuelDeterminizer
from games.engine import Action, legal_actions

GAME_OVER = "game_over"
"""The final phase of every game's view."""


class BotLevel(NamedTuple):
    name: str
    label: str
    description: str


BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "search")

BOTS: dict[str, BotLevel] = {
    "random": BotLevel("random", "Random", "Random — picks any legal move."),
    "greedy": BotLevel(
        "greedy",
        "Greedy",
        "Greedy — one-move lookahead heuristic: points, nobles, useful bonuses and tokens.",
    ),
    "search": BotLevel(
        "search",
        "Search",
        "Search — Monte Carlo tree search over sampled hidden cards, about a quarter of a "
        "second per move.",
    ),
}


def bot_label(level: str) -> str:
    return _level(level).label


def bot_description(level: str) -> str:
    return _level(level).description


def choose_action(
    level: str,
    view: Mapping[str, Any],
    *,
    seed: int,
    budget_seconds: float | None = None,
    iterations: int | None = None,
) -> Action:
    """The action the bot of ``level`` takes, given the view of the seat to act.

    ``view`` must be that seat's own view (``view(state, seat)`` with ``seat`` to act).
    ``budget_seconds`` and ``iterations`` bound the search bot (``iterations`` wins when both are
    given; neither means the default of 0.25 s); the other bots ignore them. Raises
    ``TypeError`` for anything but a view dict and ``ValueError`` for an unknown level or a view
    in which the viewer is not the one to act.
    """
    bot = _level(level)
    if not isinstance(view, Mapping):
        raise TypeError(f"bots take a view dict, not {type(view).__name__}")
    if view.get("phase") == GAME_OVER:
        raise ValueError("the game is over: there is nothing to choose")
    if view.get("viewer") != view.get("current"):
        raise ValueError("a bot chooses only for the seat whose view it is given")
    rng = random.Random(seed)
    variant = view.get("variant", "splendor")
    if variant not in _SEARCH:
        raise ValueError(f"no bots for the variant {variant!r}")
    if bot.name == "search":
        return _SEARCH[variant](view, rng, budget_seconds=budget_seconds, iterations=iterations)
    return _SIMPLE_BOTS[variant, bot.name](view, rng)


def _duel_random(view: Mapping[str, Any], rng: random.Random) -> Action:
    """A uniformly random legal action: the legal actions depend only on what the view shows."""
    return rng.choice(legal_actions(DuelDeterminizer(view).sample(rng)))


_SIMPLE_BOTS: dict[tuple[str, str], Callable[[Mapping[str, Any], random.Random], Action]] = {
    ("splendor", "random"): random_bot.choose,
    ("splendor", "greedy"): greedy.choose,
    ("duel", "random"): _duel_random,
    ("duel", "greedy"): duel_greedy.choose,
}
_SEARCH: dict[str, Callable[..., Action]] = {
    "splendor": search.choose,
    "duel": duel_search.choose,
}
"""The bots of each game, keyed by variant: a new game adds its entries here."""


def has_bot(variant: str, level: str) -> bool:
    """Whether the game ``variant`` has a bot of ``level`` (the start-up check asks each)."""
    return variant in _SEARCH if level == "search" else (variant, level) in _SIMPLE_BOTS


def _level(level: str) -> BotLevel:
    bot = BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
    return bot
