"""The system check that refuses a game lacking a part of its package.

The engine's registry (``games.engine.VARIANTS``) says which games exist; the one registry of
games (``games.variants.GAMES``) holds each game's ``Game``. :func:`check_every_game_is_complete`
(registered in ``GamesConfig.ready``, so ``manage.py check``, every server start and the test run
call it) names, game by game, every part a game the engine knows lacks: its whole package, or a
part of its ``Game`` that is empty, a template it names that does not exist, or an Expert whose
network file is missing, does not load or does not fit its encoder. :data:`PARTS` lists the parts
once, each with how to tell what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core import checks
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from games import bots, engine
from games.bots.learning.network import load
from games.variants import GAMES
from games.variants.base import Game


@dataclass(frozen=True)
class Part:
    """One part of a game: its name as a person says it, and how to tell what it lacks."""

    name: str
    lacks: Callable[[Game], str | None]
    """(the game) -> what is missing, in words, or None when the game has this part."""


def _lacks_fields(part: Any, *names: str) -> str | None:
    """The fields among ``names`` that ``part`` (a game, or a part of one) leaves empty."""
    missing = [name for name in names if not getattr(part, name, None)]
    return f"no {' nor '.join(missing)}" if missing else None


def _lacks_templates(*names: str) -> str | None:
    missing = []
    for name in names:
        try:
            get_template(name)
        except TemplateDoesNotExist:
            missing.append(name)
    return f"no template {', '.join(missing)}" if missing else None


def _lacks_page_templates(game: Game) -> str | None:
    return _lacks_fields(game, "table_template", "partials") or _lacks_templates(
        game.table_template, f"{game.partials}status.html"
    )


def _lacks_replay_board(game: Game) -> str | None:
    return _lacks_fields(game, "board_template") or _lacks_templates(game.board_template)


def _lacks_bots(game: Game) -> str | None:
    choosers: Mapping[str, Any] = game.bots or {}
    missing = [level for level in bots.BOT_LEVELS if not choosers.get(level)]
    return f"no {', '.join(missing)} bot" if missing else None


def _lacks_expert(game: Game) -> str | None:
    """What keeps the Expert from playing: its parts, its network file, their agreement; so
    that a server refuses to start rather than fail on a player's first Expert move. The file
    is read with ``load``: ``installed`` would keep the weights in every process checked, even
    one that never plays an Expert."""
    expert = game.expert
    if not expert:
        return "no entry"
    missing = _lacks_fields(expert, "seat_rows", "features", "most_seats", "choose", "network")
    if missing:
        return missing
    if not expert.network.is_file():
        return f"no network file {expert.network}"
    try:
        network = load(expert.network)
    except Exception as error:  # a bad zip, a truncated array, a missing layer: all say "no"
        return f"a network file that does not load ({expert.network}: {error})"
    if network.inputs != expert.features:
        return (
            f"a network of {network.inputs} inputs in {expert.network}, "
            f"for {expert.features} features"
        )
    table = engine.initial_state(engine.new_game(game.variant, expert.most_seats, 0))
    widths = {len(row) for row in expert.seat_rows(table, 0)}
    if widths != {expert.features}:
        return (
            f"an encoder whose rows at a table of {expert.most_seats} hold "
            f"{', '.join(map(str, sorted(widths)))} numbers, not {expert.features}"
        )
    return None


def _lacks_analytics(game: Game) -> str | None:
    facts = game.analytics
    if not facts:
        return "no entry"
    parts = (
        "fold",
        "cards",
        "nobles",
        "colours",
        "card_label",
        "card_key",
        "turn_order",
        "endings_note",
    )
    missing = [name for name in parts if not getattr(facts, name)]
    return f"no {' nor '.join(missing)}" if missing else None


def _lacks_ending(game: Game) -> str | None:
    ending = game.ending
    if not ending:
        return "no entry"
    missing = [
        name for name in ("ways", "won_by", "points_besides_cards", "scores")
        if not getattr(ending, name)
    ]  # fmt: skip
    return f"no {' nor '.join(missing)}" if missing else None


def _lacks_mail_position(game: Game) -> str | None:
    parts = {"builder": game.mail_position, "card words": game.card_words}
    missing = [name for name, part in parts.items() if not part]
    if missing:
        return f"no {' nor '.join(missing)}"
    return _lacks_templates(*game.mail_templates)


def _lacks_how_to_play(game: Game) -> str | None:
    guide = game.how_to_play
    if not guide:
        return "no how_to_play"
    return _lacks_fields(guide, "template", "examples") or _lacks_templates(guide.template)


PARTS: tuple[Part, ...] = (
    Part(
        "web side (title, page forms)",
        lambda game: _lacks_fields(game, "title", "blurb", "action_from_form", "remember_turn"),
    ),
    Part(
        "API action shapes", lambda game: _lacks_fields(game, "parse_api_action", "action_schema")
    ),
    Part("page templates", _lacks_page_templates),
    Part(
        "presenter (words, table)",
        lambda game: _lacks_fields(game, "describe_action", "consequences", "table"),
    ),
    Part("ending (ways to win, split of points)", _lacks_ending),
    Part("replay board template", _lacks_replay_board),
    Part("bots", _lacks_bots),
    Part("Expert bot (its value network)", _lacks_expert),
    Part("analytics facts", _lacks_analytics),
    Part(
        "analysis position judge",
        lambda game: (
            "no entry"
            if not game.position_judge
            else _lacks_fields(game.position_judge, "budget", "evaluate")
        ),
    ),
    Part("mail position", _lacks_mail_position),
    Part("how-to-play page", _lacks_how_to_play),
)
"""Every part of a game's package; a new kind of part is one line here and one field of
``Game``."""


def check_every_game_is_complete(
    app_configs: Any = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """games.E001 for each part a game the engine knows lacks (its whole package, when it has
    none); games.E002 for each entry of ``GAMES`` the engine does not know, or filed under
    another variant than its ``Game``'s own (a misspelt or forgotten variant)."""

    errors: list[checks.CheckMessage] = []
    for variant in engine.VARIANTS:
        game = GAMES.get(variant)
        if game is None:
            errors.append(
                checks.Error(
                    f"The game {variant!r} lacks its package: games.variants.GAMES has no entry.",
                    hint=f"Add games/variants/{variant}/ exporting its GAME "
                    "(games.variants.base.Game), and one line in games.variants.GAMES.",
                    id="games.E001",
                )
            )
            continue
        for part in PARTS:
            missing = part.lacks(game)
            if missing is not None:
                errors.append(
                    checks.Error(
                        f"The game {variant!r} lacks its {part.name}: {missing}.",
                        hint=f"Give it in the GAME of games/variants/{variant}/.",
                        id="games.E001",
                    )
                )
    for variant, game in GAMES.items():
        if variant not in engine.VARIANTS:
            errors.append(
                checks.Error(
                    f"games.variants.GAMES has an entry for {variant!r}, a game the engine does "
                    f"not know (known: {', '.join(engine.VARIANTS)}).",
                    hint="Remove the entry, or add the game to games.engine's registry.",
                    id="games.E002",
                )
            )
        elif game.variant != variant:
            errors.append(
                checks.Error(
                    f"games.variants.GAMES files the Game of {game.variant!r} under {variant!r}.",
                    hint="File each Game under its own variant (GAME.variant).",
                    id="games.E002",
                )
            )
    return errors
