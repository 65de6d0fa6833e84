"""Pure move choosers over the engine: the bots a seat can be given.

A bot sees exactly what a human in its seat sees: the dict of ``games.engine.view(state, seat)``
(design.md, "Hidden information"). It never receives the state. Every bot is deterministic
given its seed; the search and Expert bots also need their budget to be counted in iterations
for that (a time budget depends on the machine's speed).

This package holds the levels and each game's choosers (``greedy``, ``search``, ``expert``... for
the base game, ``duel/`` for Splendor Duel; ``learning/``, the Expert's value network); which
chooser plays which level of which game, with which network, is the game's own package's to say
(``games.variants.<game>``, its ``bots``), so the one registry of games
(``games.variants.GAMES``) is the only table keyed by variant. Callers above the game packages
ask ``games.variants.choose_bot_action``; this module's :func:`choose_action` is given the
game's choosers:

    action = choose_action(game.bots, "search", view, seed=42, budget_seconds=0.25)

Every level of both games makes progress: neither the greedy nor the search bot takes tokens
over the limit only to give them back while it could do anything else (``progress``), and a
game between bots of any levels ends within 400 actions, at any table (the longest games,
between random bots, stay under about 300; two greedy bots once marked time for 1,183 actions
of a Duel, and for ever in another). ``tests/bots/test_bots_make_progress.py`` holds them to
it over many seeds and every pairing of levels (docs/decisions/0141-bots-make-progress.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from games.engine import Action

Chooser = Callable[..., Action]
"""A game's bot of one level: ``(view, rng) -> action``; the levels that think within a budget
(:data:`BUDGETED`) also take the keywords ``budget_seconds`` and ``iterations``."""

GAME_OVER = "game_over"
"""The final phase of every game's view."""


class BotLevel(NamedTuple):
    name: str
    label: str
    description: str


BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "search", "expert")

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
    "expert": BotLevel(
        "expert",
        "Expert",
        "Expert — the Search bot's search in the same thinking time, judging positions with "
        "a value network learned from games between bots once its game's has passed its test "
        "(until then it plays as Search).",
    ),
}

BUDGETED: frozenset[str] = frozenset({"search", "expert"})
"""The levels that search within a budget: the Expert is the search with a learned evaluation."""


def bot_label(level: str) -> str:
    return _level(level).label


def bot_description(level: str) -> str:
    return _level(level).description


def choose_action(
    choosers: Mapping[str, Chooser],
    level: str,
    view: Mapping[str, Any],
    *,
    seed: int,
    budget_seconds: float | None = None,
    iterations: int | None = None,
) -> Action:
    """The action the bot of ``level`` takes, given the view of the seat to act.

    ``choosers`` are the bots of the view's game, by level (its package's ``bots``).
    ``view`` must be that seat's own view (``view(state, seat)`` with ``seat`` to act).
    ``budget_seconds`` and ``iterations`` bound the search and Expert bots (``iterations`` wins
    when both are given; neither means the default of 0.25 s); the other bots ignore them. Raises
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
    chooser = choosers.get(bot.name)
    if chooser is None:
        missing = f"no {bot.name} bot" if choosers else "no bots"
        raise ValueError(f"{missing} for the variant {view.get('variant')!r}")
    rng = random.Random(seed)
    if bot.name in BUDGETED:
        return chooser(view, rng, budget_seconds=budget_seconds, iterations=iterations)
    return chooser(view, rng)


def _level(level: str) -> BotLevel:
    bot = BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
    return bot
