"""The table's many small pieces drawn in Python: gems, face-up cards, nobles, buying power.

A board draws a dozen cards and sixty-odd gems. Through ``{% include %}`` in loops, each piece
cost a template lookup, a context push and dozens of variable lookups: most of a board's
drawing time (issue 12: the replay viewer's step under 30 ms). Here each piece is one
``format_html`` call; pieces that depend only on a few values (a gem, a buying-power cell) are
formatted once per distinct value and kept. The markup is the one the templates drew, up to
the amount of whitespace between tags.
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _escaped(value: Any) -> str:
    """``value`` as HTML: markup already safe as it is, anything else escaped, as
    ``format_html`` does, without the lazy-string checks that cost most of a board's time."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    if type(value) is int:
        return str(value)
    return html.escape(str(value))


def _html(markup: str, /, **values: Any) -> SafeString:
    """``markup`` with its ``{name}`` fields filled with ``values``, escaped (``format_html``)."""
    return mark_safe(markup.format_map({name: _escaped(value) for name, value in values.items()}))


# Gems -----------------------------------------------------------------------------------------

_GEM = (
    # The newlines around a gem are what separates one gem from the next in a row of them.
    '\n<span class="gem gem--{colour}{zero}" title="{count} {name}">'
    '<svg viewBox="0 0 24 24" aria-hidden="true"><use href="#shape-{colour}"></use></svg>'
    '<b aria-hidden="true">{letter}</b>{counted}'
    '<span class="visually-hidden">{count} {name}</span></span>\n'
)


@register.simple_tag
def gem(piece: Mapping[str, Any], with_count: bool = False, show_zero: bool = False) -> SafeString:
    """A gem or token: its shape and letter name the colour as well as its colour does.

    ``piece`` has ``colour``, ``letter``, ``name`` and usually ``count`` (a card's bonus has
    none: its gem is drawn without a number); ``with_count`` shows the count beside the shape,
    ``show_zero`` greys out a count of nought.
    """
    return gem_markup(
        piece["colour"],
        piece["letter"],
        piece["name"],
        piece.get("count", ""),
        bool(with_count),
        bool(show_zero),
    )


@lru_cache(maxsize=4096)
def gem_markup(
    colour: str, letter: str, name: str, count: int | str, with_count: bool, show_zero: bool
) -> SafeString:
    counted = _html('<span class="gem-count">{count}</span>', count=count) if with_count else ""
    zero = mark_safe(" is-zero") if show_zero and not count else ""
    return _html(
        _GEM, colour=colour, zero=zero, count=count, name=name, letter=letter, counted=counted
    )


def _gems(pieces: Sequence[Mapping[str, Any]], *, with_count: bool = False) -> SafeString:
    return mark_safe("".join(gem(piece, with_count) for piece in pieces))


def _gem_items(pieces: Sequence[Mapping[str, Any]]) -> SafeString:
    """Gems with their counts, each a list item."""
    return mark_safe("".join(f"<li>{gem(piece, True)}</li>" for piece in pieces))


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


# Moves ----------------------------------------------------------------------------------------


def move_inputs_markup(version: int) -> SafeString:
    """The version the page shows and a fresh idempotency key, as hidden inputs.

    The key is new for every form: a double click or a resent form repeats it, so the server
    plays the move once; a tab left open sends an old version and is told the game moved on.
    """
    return _html(
        '<input type="hidden" name="expected_version" value="{version}">'
        '<input type="hidden" name="idempotency_key" value="{key}">',
        version=version,
        key=secrets.token_urlsafe(16),
    )


def _move_form(context: template.Context, css_class: str) -> SafeString:
    """A move form's opening tag and hidden inputs: the address and the CSRF input are worked
    out once per template drawn, the idempotency key is new for each form."""
    cached = context.render_context.get(_move_form)
    if cached is None:
        action = reverse("game_act", args=[context["game"]["id"]])
        cached = (action, CsrfTokenNode().render(context))
        context.render_context[_move_form] = cached
    action, csrf = cached
    return _html(
        '<form method="post" action="{action}" hx-post="{action}" hx-swap="none" class="{css}">'
        "\n{csrf}{inputs}",
        action=action,
        css=css_class,
        csrf=csrf,
        inputs=move_inputs_markup(context["game"]["version"]),
    )


# Cards ----------------------------------------------------------------------------------------

_CARD = """
<article class="card card--{colour}{classes}" data-card="{id}"{opens}>
<svg class="card-art" viewBox="0 0 24 24" aria-hidden="true"><use href="#shape-{colour}"></use></svg>
<div class="card-top">
<span class="card-points" title="{points} point{s}">{shown_points}</span>
<span class="card-bonus" title="Bonus: {name}">{bonus}</span>
</div>
{flags}<p class="visually-hidden">Level {level} {name} card, {points} point{s}{affordable}.</p>
<ul class="card-cost" aria-label="Cost">
{cost}
</ul>
{needs}{actions}</article>
"""  # noqa: E501 (the markup reads best a tag a line)

_FLAG_NEW = '<span class="flag flag--new" title="New since your last turn">new</span>\n'
_FLAG_AFFORD = '<span class="flag flag--afford" title="You can afford this card now">✓</span>\n'


@register.simple_tag(takes_context=True)
def card(context: template.Context, item: Mapping[str, Any]) -> SafeString:
    """A face-up card (``games.variants.splendor.table``'s card). Only visible cards are drawn here,
    so only they carry ``data-card``. With the page's script, a click on a card with moves opens
    them over it; without, they show below."""
    has_actions = item["can_buy"] or item["can_reserve"]
    classes = "".join(
        name
        for name, present in (
            (" has-actions", has_actions),
            (" is-affordable", item["affordable"]),
            (" is-new", item["is_new"]),
        )
        if present
    )
    opens = (
        _html(
            ' tabindex="0" aria-expanded="false"'
            ' aria-label="Level {level} {name} card: show {moves}"',
            level=item["level"],
            name=item["name"],
            moves=" and ".join(
                move
                for move, can in (("Buy", item["can_buy"]), ("Reserve", item["can_reserve"]))
                if can
            ),
        )
        if has_actions
        else ""
    )
    flags = ""
    if item["is_new"] or item["affordable"]:
        flags = mark_safe(
            '<span class="card-flags">\n'
            + (_FLAG_NEW if item["is_new"] else "")
            + (_FLAG_AFFORD if item["affordable"] else "")
            + "</span>\n"
        )
    points = item["points"]
    return _html(
        _CARD,
        colour=item["colour"],
        classes=classes,
        id=item["id"],
        opens=opens,
        points=points,
        s=_plural(points),
        shown_points=points or "",
        name=item["name"],
        bonus=gem(item),
        flags=flags,
        level=item["level"],
        affordable=", affordable" if item["affordable"] else "",
        cost=_gem_items(item["cost"]),
        needs=_html('<p class="card-needs">{needs}</p>\n', needs=item["needs"])
        if item["needs"]
        else "",
        actions=_card_actions(context, item) if has_actions else "",
    )


def _card_actions(context: template.Context, item: Mapping[str, Any]) -> SafeString:
    parts = ['<div class="card-actions">\n']
    if item["can_buy"]:
        parts.append(_buy_form(context, item))
    if item["can_reserve"]:
        parts.append(
            _html(
                '{form}\n<input type="hidden" name="kind" value="reserve_card">\n'
                '<input type="hidden" name="card" value="{id}">\n'
                '<button type="submit" class="btn btn-small btn-reserve">Reserve</button>\n'
                "</form>\n",
                form=_move_form(context, "card-form"),
                id=item["id"],
            )
        )
    elif item.get("why_not_reserve"):
        parts.append(
            _html(
                '<div class="card-form">\n<button type="button" class="btn btn-small btn-reserve"'
                ' disabled title="Reserve: {why}">Reserve</button>\n'
                '<small class="why-not">{why}</small>\n</div>\n',
                why=item["why_not_reserve"],
            )
        )
    parts.append(
        '<button type="button" class="btn btn-tiny card-close" hidden>Cancel</button>\n</div>\n'
    )
    return mark_safe("".join(parts))


def _buy_form(context: template.Context, item: Mapping[str, Any]) -> SafeString:
    payments = item["payments"]
    first = payments[0]["gems"] if payments else []
    pay_line = (
        mark_safe(
            "".join(
                _html(
                    '<span class="pay-gem pay-gem--{colour}">{count}{letter}</span> ',
                    colour=piece["colour"],
                    count=piece["count"],
                    letter=piece["letter"],
                )
                for piece in first
            )
        )
        if first
        else "nothing"
    )
    choices = ""
    if len(payments) > 1:
        buttons = "".join(
            _html(
                '<button type="submit" name="payment" value="{value}" class="btn btn-tiny">\n'
                "Pay {gems}\n</button>\n",
                value=option["value"],
                gems=_gems(option["gems"], with_count=True),
            )
            for option in payments[1:]
        )
        choices = _html(
            '<details class="pay-choices">\n<summary>Pay with gold…</summary>\n{buttons}'
            "</details>\n",
            buttons=mark_safe(buttons),
        )
    return _html(
        '{form}\n<input type="hidden" name="kind" value="buy_card">\n'
        '<input type="hidden" name="card" value="{id}">\n'
        '<button type="submit" class="btn btn-small btn-buy">Buy</button>\n'
        '<small class="pay-line" title="What you hand over">pay {pay_line}</small>\n'
        "{choices}</form>\n",
        form=_move_form(context, "card-form"),
        id=item["id"],
        pay_line=pay_line,
        choices=choices,
    )


# Nobles and buying power ----------------------------------------------------------------------


@register.simple_tag
def noble(piece: Mapping[str, Any]) -> SafeString:
    """A noble: its points and the bonuses it asks for."""
    return _html(
        '<div class="noble" data-noble="{id}" title="A noble worth {points} points">\n'
        '<span class="noble-points">{points}</span>\n'
        '<svg class="noble-crest" viewBox="0 0 24 24" aria-hidden="true">'
        '<path d="M3 18h18l-1.5-10-4.5 4-3-7-3 7-4.5-4Z"/></svg>\n'
        '<ul class="noble-needs" aria-label="Needs bonuses">\n{needs}\n</ul>\n</div>\n',
        id=piece["id"],
        points=piece["points"],
        needs=_gem_items(piece["requires"]),
    )


@register.simple_tag
def power_cells(columns: Sequence[Mapping[str, Any]]) -> SafeString:
    """A player's buying power, a cell per colour: bonuses (cards) + tokens, gold last."""
    return mark_safe(
        "".join(
            _power_cell(column["name"], column["bonus"], column["tokens"], column["count"])
            for column in columns
        )
    )


@lru_cache(maxsize=4096)
def _power_cell(name: str, bonus: int | None, tokens: int, count: int) -> SafeString:
    zero = "" if count else "is-zero"
    # The parts are drawn small for the eye and said in words for a screen reader (a label on
    # a plain span is not read).
    return _html(
        '<td title="{name}: {parts}"><b class="{zero}">{count}</b>'
        '<small class="power-parts{zero_part}" aria-hidden="true">{bonus_part}<span>{tokens}'
        '</span></small><span class="visually-hidden">: {parts}</span></td>',
        name=name,
        parts=f"{'' if bonus is None else f'{bonus} from cards + '}{tokens} token{_plural(tokens)}",
        tokens=tokens,
        zero=zero,
        count=count,
        zero_part=f" {zero}" if zero else "",
        bonus_part=""
        if bonus is None
        else _html('<span class="bonus">{bonus}</span>+', bonus=bonus),
    )
