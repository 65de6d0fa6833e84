"""What a game provides on the web side, and the system check that refuses a game lacking a part.

The engine's registry (``games.engine.VARIANTS``) says which games exist. Everything else a game
needs is still registered in several places keyed by variant (the web registry here, the
presenters, the bots, analytics, the mail position, the templates): :data:`PARTS` lists them
once, each with how to find it for one variant, and :func:`check_every_game_is_complete`
(registered in ``GamesConfig.ready``, so ``manage.py check``, every server start and the test
run call it) names every part a known game lacks, and every registry entry for a game the engine
does not know.

The check reads registries of ``notifications`` and ``analytics``: until those parts move into
the game's own package (issue 23) this module imports upward, on purpose and only here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core import checks
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from analytics.variants import known_variants
from games import bots, engine, variants
from games.variants.presenters import PRESENTERS
from notifications.position import CARD_WORDS, POSITION_BUILDERS


@dataclass(frozen=True)
class Part:
    """One part of a game: its name as a person says it, where it is registered, how to find it."""

    name: str
    where: str
    """The registry (or folder) a game's entry goes in, for the error's hint."""
    lacks: Callable[[str], str | None]
    """(variant) -> what is missing, in words, or None when the game has this part."""
    known: Callable[[], Iterable[str]] | None = None
    """Every variant the registry holds, where it can say (to find entries for no game)."""


def _web(variant: str) -> Any:
    return {web.variant: web for web in variants.offered()}.get(variant)


def _lacks_web(variant: str) -> str | None:
    return None if _web(variant) is not None else "no entry"


def _web_variants() -> Iterable[str]:
    return [web.variant for web in variants.offered()]


def _lacks_api_actions(variant: str) -> str | None:
    web = _web(variant)
    if web is None:
        return "no web entry to hold them"
    missing = [name for name in ("parse_api_action", "action_schema") if not getattr(web, name)]
    return f"no {' nor '.join(missing)}" if missing else None


def _lacks_templates(*names: str) -> str | None:
    missing = []
    for name in names:
        try:
            get_template(name)
        except TemplateDoesNotExist:
            missing.append(name)
    return f"no template {', '.join(missing)}" if missing else None


def _lacks_page_templates(variant: str) -> str | None:
    web = _web(variant)
    if web is None:
        return "no web entry to name them"
    return _lacks_templates(web.table_template, f"{web.partials}status.html")


def _lacks_presenter(variant: str) -> str | None:
    return None if variant in PRESENTERS else "no entry"


def _presenter_variants() -> Iterable[str]:
    return PRESENTERS


def _lacks_replay_board(variant: str) -> str | None:
    presenter = PRESENTERS.get(variant)
    if presenter is None:
        return "no presenter to name it"
    return _lacks_templates(presenter.board_template)


def _lacks_bots(variant: str) -> str | None:
    missing = [level for level in bots.BOT_LEVELS if not bots.has_bot(variant, level)]
    return f"no {', '.join(missing)} bot" if missing else None


def _lacks_analytics(variant: str) -> str | None:
    return None if variant in known_variants() else "no entry"


def _analytics_variants() -> Iterable[str]:
    return known_variants()


def _lacks_mail_position(variant: str) -> str | None:
    registries = {"builder": POSITION_BUILDERS, "card words": CARD_WORDS}
    missing = [name for name, registry in registries.items() if variant not in registry]
    if missing:
        return f"no {' nor '.join(missing)}"
    return _lacks_templates(
        f"notifications/mail/position/{variant}.txt", f"notifications/mail/position/{variant}.html"
    )


def _mail_position_variants() -> Iterable[str]:
    return POSITION_BUILDERS


PARTS: tuple[Part, ...] = (
    Part("web side (page forms, title)", "games.variants._registry", _lacks_web, _web_variants),
    Part("API action shapes", "its games.variants GameWeb entry", _lacks_api_actions),
    Part("page templates", "templates/ (its GameWeb's table and partials)", _lacks_page_templates),
    Part(
        "presenter (words, table)",
        "games.variants.presenters.PRESENTERS",
        _lacks_presenter,
        _presenter_variants,
    ),
    Part(
        "replay board template", "templates/ (its presenter's board_template)", _lacks_replay_board
    ),
    Part("bots", "games.bots (_SIMPLE_BOTS and _SEARCH)", _lacks_bots),
    Part("analytics facts", "analytics.variants._REGISTRY", _lacks_analytics, _analytics_variants),
    Part(
        "mail position",
        "notifications.position (POSITION_BUILDERS, CARD_WORDS) and "
        "templates/notifications/mail/position/",
        _lacks_mail_position,
        _mail_position_variants,
    ),
)
"""Every part of a game on the web side; a new kind of part is one line here."""


def check_every_game_is_complete(
    app_configs: Any = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """games.E001 for each part a game the engine knows lacks; games.E002 for each registry
    entry of a game the engine does not know (a misspelt or forgotten variant)."""

    errors: list[checks.CheckMessage] = []
    for variant in engine.VARIANTS:
        for part in PARTS:
            missing = part.lacks(variant)
            if missing is not None:
                errors.append(
                    checks.Error(
                        f"The game {variant!r} lacks its {part.name}: {missing}.",
                        hint=f"Register {variant!r} in {part.where}.",
                        id="games.E001",
                    )
                )
    for part in PARTS:
        for variant in part.known() if part.known else ():
            if variant not in engine.VARIANTS:
                errors.append(
                    checks.Error(
                        f"{part.where} has an entry for {variant!r}, a game the engine does not "
                        f"know (known: {', '.join(engine.VARIANTS)}).",
                        hint="Remove the entry, or add the game to games.engine's registry.",
                        id="games.E002",
                    )
                )
    return errors
