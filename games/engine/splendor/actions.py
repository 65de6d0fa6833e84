"""Actions: small frozen values, one class per decision a player can make, with a JSON form.

The JSON form is documented in ``docs/notation.md``; it is the one the REST API speaks and the one
the event log stores. Constructors do not check the rules: ``apply_action`` does, once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import MalformedJSON
from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.gems import (
    COLOUR_BY_NAME,
    COLOUR_NAMES,
    Tokens,
    tokens_from_json,
    tokens_to_json,
)


@dataclass(frozen=True, slots=True)
class TakeGems:
    """Take one token each of up to three different colours, or two tokens of one colour.

    ``gems`` holds colour indexes in ascending order; two equal entries mean "two of a colour".
    """

    gems: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ReserveCard:
    """Reserve a face-up card from the board (and take a gold token if any is left)."""

    card: int


@dataclass(frozen=True, slots=True)
class ReserveFromDeck:
    """Reserve the top card of a level's deck unseen by the others (and take a gold if any)."""

    level: int


@dataclass(frozen=True, slots=True)
class BuyCard:
    """Buy a face-up card or one of your reserved cards.

    ``payment`` is the six token counts to spend; ``None`` lets the engine pay coloured tokens
    first and gold for the rest. Either way the spend is exactly the cost less bonuses.
    """

    card: int
    payment: Tokens | None = None


@dataclass(frozen=True, slots=True)
class ReturnTokens:
    """Give back exactly the tokens above ten, any colours (gold included)."""

    tokens: Tokens


@dataclass(frozen=True, slots=True)
class ChooseNoble:
    """Choose which of several qualifying nobles visits you this turn."""

    noble: int


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without acting: allowed only when no other action is legal."""


Action = TakeGems | ReserveCard | ReserveFromDeck | BuyCard | ReturnTokens | ChooseNoble | Pass


def action_to_json(action: Action) -> dict[str, Any]:
    """The documented JSON form of an action."""
    match action:
        case TakeGems(gems):
            return {"type": "take_gems", "gems": [COLOUR_NAMES[colour] for colour in gems]}
        case ReserveCard(card):
            return {"type": "reserve_card", "card": card}
        case ReserveFromDeck(level):
            return {"type": "reserve_from_deck", "level": level}
        case BuyCard(card, None):
            return {"type": "buy_card", "card": card}
        case BuyCard(card, payment):
            assert payment is not None
            return {"type": "buy_card", "card": card, "payment": tokens_to_json(payment)}
        case ReturnTokens(tokens):
            return {"type": "return_tokens", "tokens": tokens_to_json(tokens)}
        case ChooseNoble(noble):
            return {"type": "choose_noble", "noble": noble}
        case Pass():
            return {"type": "pass"}
    raise TypeError(f"not a Splendor action: {action!r}")


def action_from_json(data: Any) -> Action:
    """Parse the JSON form of an action; :class:`MalformedJSON` says what is wrong with it.

    Only the shape is checked here; whether the action is legal is for ``apply_action``.
    """
    if type(data) is dict and len(data) == 2:
        # The commonest forms, looked up: a replay reads one per recorded action. Anything
        # not found takes the full path below, which gives the same answer.
        kind = data.get("type")
        parse = _COMMON_FORMS.get(kind) if type(kind) is str else None
        found = None if parse is None else parse(data)
        if found is not None:
            return found
    if not isinstance(data, Mapping):
        raise MalformedJSON("an action must be a JSON object")
    kind = data.get("type")
    fields = _ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        known = ", ".join(sorted(_ACTION_FIELDS))
        raise MalformedJSON(f"unknown action type {kind!r}; expected one of: {known}")
    required, optional = fields
    unknown = set(data) - {"type", *required, *optional}
    if unknown:
        raise MalformedJSON(f"unexpected field(s) for {kind}: {', '.join(sorted(unknown))}")
    missing = [name for name in required if name not in data]
    if missing:
        raise MalformedJSON(f"{kind} needs the field(s): {', '.join(missing)}")
    match kind:
        case "take_gems":
            return TakeGems(_colour_list(data["gems"]))
        case "reserve_card":
            return ReserveCard(_whole_number(data["card"], "card"))
        case "reserve_from_deck":
            return ReserveFromDeck(_whole_number(data["level"], "level"))
        case "buy_card":
            payment = data.get("payment")
            return BuyCard(
                _whole_number(data["card"], "card"),
                None if payment is None else _token_counts(payment, "payment"),
            )
        case "return_tokens":
            return ReturnTokens(_token_counts(data["tokens"], "tokens"))
        case "choose_noble":
            return ChooseNoble(_whole_number(data["noble"], "noble"))
    return Pass()


_ACTION_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "take_gems": (("gems",), ()),
    "reserve_card": (("card",), ()),
    "reserve_from_deck": (("level",), ()),
    "buy_card": (("card",), ("payment",)),
    "return_tokens": (("tokens",), ()),
    "choose_noble": (("noble",), ()),
    "pass": ((), ()),
}


def _whole_number(value: Any, field: str) -> int:
    if type(value) is not int:
        raise MalformedJSON(f"{field} must be a whole number")
    return value


def _colour_list(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise MalformedJSON("gems must be a list of colour names")
    unknown = [name for name in value if name not in COLOUR_BY_NAME]
    if unknown:
        raise MalformedJSON(f"unknown colour(s): {', '.join(unknown)}")
    return tuple(sorted(COLOUR_BY_NAME[name] for name in value))


def _token_counts(value: Any, field: str) -> Tokens:
    if not isinstance(value, Mapping):
        raise MalformedJSON(f"{field} must be an object of colour name to count")
    try:
        return tokens_from_json(value)
    except ValueError as error:
        raise MalformedJSON(f"{field}: {error}") from None


def _common_take(data: Mapping[str, Any]) -> Action | None:
    gems = data.get("gems")
    return _TAKES_BY_NAMES.get(tuple(gems)) if type(gems) is list else None


def _common_buy(data: Mapping[str, Any]) -> Action | None:
    card = data.get("card")
    return _BUY_BY_CARD.get(card) if type(card) is int else None


def _common_reserve(data: Mapping[str, Any]) -> Action | None:
    card = data.get("card")
    return _RESERVE_BY_CARD.get(card) if type(card) is int else None


_CARD_IDS = range(len(CARDS))
_TAKES_BY_NAMES: dict[tuple[str, ...], TakeGems] = {
    tuple(COLOUR_NAMES[colour] for colour in gems): TakeGems(gems)
    for gems in (
        *((first, second, third) for first in range(5) for second in range(first + 1, 5)
          for third in range(second + 1, 5)),
        *((first, second) for first in range(5) for second in range(first, 5)),
        *((colour,) for colour in range(5)),
    )
}  # fmt: skip
"""Takes of gem colours written in ascending colour order, by their list of names."""
_BUY_BY_CARD: dict[int, BuyCard] = {card: BuyCard(card) for card in _CARD_IDS}
_RESERVE_BY_CARD: dict[int, ReserveCard] = {card: ReserveCard(card) for card in _CARD_IDS}
_COMMON_FORMS: dict[str, Callable[[Mapping[str, Any]], Action | None]] = {
    "take_gems": _common_take,
    "buy_card": _common_buy,
    "reserve_card": _common_reserve,
}
