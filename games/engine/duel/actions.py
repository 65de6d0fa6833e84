"""Actions: small frozen values, one class per decision a Duel player can make, with a JSON form.

The JSON form is documented in ``docs/notation.md`` ("Splendor Duel"). Board spaces are written
``[row, column]`` (0-based, row 0 at the top) and held as space indexes. Constructors do not check
the rules: ``apply_action`` does, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.duel.board import MAX_LINE, SIZE, SPACES, row_column, space_of
from games.engine.duel.catalogue import CARDS, ROYALS
from games.engine.duel.tokens import (
    COLOUR_BY_NAME,
    COLOUR_NAMES,
    COST_COLOURS,
    GEM_COLOURS,
    Tokens,
    tokens_from_json,
    tokens_to_json,
)
from games.engine.errors import MalformedJSON


@dataclass(frozen=True, slots=True)
class UsePrivilege:
    """Optional action 1: return a privilege to take the gem or pearl token on ``space``."""

    space: int


@dataclass(frozen=True, slots=True)
class Replenish:
    """Optional action 2: lay the bag's tokens on the board; the opponent takes a privilege."""


@dataclass(frozen=True, slots=True)
class TakeTokens:
    """Take one to three gem or pearl tokens on adjacent spaces of one line (ascending)."""

    spaces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakeGold:
    """Take the gold token on ``space``; a card to reserve is chosen next."""

    space: int


@dataclass(frozen=True, slots=True)
class ReserveCard:
    """After taking a gold: reserve a card of the pyramid."""

    card: int


@dataclass(frozen=True, slots=True)
class ReserveFromDeck:
    """After taking a gold: reserve the top card of a level's deck, unseen by the opponent."""

    level: int


@dataclass(frozen=True, slots=True)
class BuyCard:
    """Buy a card of the pyramid or one of your reserved cards.

    ``payment`` is the seven token counts to spend; ``None`` lets the engine pay gem and pearl
    tokens first and gold for the rest. Either way the spend is exactly the cost less bonuses.
    """

    card: int
    payment: Tokens | None = None


@dataclass(frozen=True, slots=True)
class ChooseJokerColour:
    """Place the joker card just bought with your cards of ``colour`` (a gem colour)."""

    colour: int


@dataclass(frozen=True, slots=True)
class TakeMatchingToken:
    """The "Gem" ability: take the token on ``space``, of the colour of the card just bought."""

    space: int


@dataclass(frozen=True, slots=True)
class StealToken:
    """The "Take" ability: take one token of ``colour`` (a gem or pearl) from the opponent."""

    colour: int


@dataclass(frozen=True, slots=True)
class ChooseRoyal:
    """Take a royal card on reaching a third or a sixth crown."""

    royal: int


@dataclass(frozen=True, slots=True)
class DiscardTokens:
    """Put exactly the tokens above ten back in the bag, any colours."""

    tokens: Tokens


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without acting: allowed only when nothing else is."""


Action = (
    UsePrivilege
    | Replenish
    | TakeTokens
    | TakeGold
    | ReserveCard
    | ReserveFromDeck
    | BuyCard
    | ChooseJokerColour
    | TakeMatchingToken
    | StealToken
    | ChooseRoyal
    | DiscardTokens
    | Pass
)
ACTION_TYPES: tuple[type, ...] = (
    UsePrivilege,
    Replenish,
    TakeTokens,
    TakeGold,
    ReserveCard,
    ReserveFromDeck,
    BuyCard,
    ChooseJokerColour,
    TakeMatchingToken,
    StealToken,
    ChooseRoyal,
    DiscardTokens,
    Pass,
)


def action_to_json(action: Action) -> dict[str, Any]:
    """The documented JSON form of an action."""
    match action:
        case UsePrivilege(space):
            return {"type": "use_privilege", "space": _space_json(space)}
        case Replenish():
            return {"type": "replenish"}
        case TakeTokens(spaces):
            return {"type": "take_tokens", "spaces": [_space_json(space) for space in spaces]}
        case TakeGold(space):
            return {"type": "take_gold", "space": _space_json(space)}
        case ReserveCard(card):
            return {"type": "reserve_card", "card": card}
        case ReserveFromDeck(level):
            return {"type": "reserve_from_deck", "level": level}
        case BuyCard(card, None):
            return {"type": "buy_card", "card": card}
        case BuyCard(card, payment):
            assert payment is not None
            return {"type": "buy_card", "card": card, "payment": tokens_to_json(payment)}
        case ChooseJokerColour(colour):
            return {"type": "choose_joker_colour", "colour": COLOUR_NAMES[colour]}
        case TakeMatchingToken(space):
            return {"type": "take_matching_token", "space": _space_json(space)}
        case StealToken(colour):
            return {"type": "steal_token", "colour": COLOUR_NAMES[colour]}
        case ChooseRoyal(royal):
            return {"type": "choose_royal", "royal": royal}
        case DiscardTokens(tokens):
            return {"type": "discard_tokens", "tokens": tokens_to_json(tokens)}
        case Pass():
            return {"type": "pass"}
    raise TypeError(f"not a Splendor Duel action: {action!r}")


def action_from_json(data: Any) -> Action:
    """Parse the JSON form of an action; :class:`MalformedJSON` says what is wrong with it.

    Only the shape is checked here; whether the action is legal is for ``apply_action``.
    """
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
        case "use_privilege":
            return UsePrivilege(_space(data["space"]))
        case "replenish":
            return Replenish()
        case "take_tokens":
            return TakeTokens(_spaces(data["spaces"]))
        case "take_gold":
            return TakeGold(_space(data["space"]))
        case "reserve_card":
            return ReserveCard(_number_in(data["card"], "card", _CARD_NUMBERS))
        case "reserve_from_deck":
            return ReserveFromDeck(_number_in(data["level"], "level", _LEVELS))
        case "buy_card":
            return BuyCard(
                _number_in(data["card"], "card", _CARD_NUMBERS),
                _token_counts(data["payment"], "payment") if "payment" in data else None,
            )
        case "choose_joker_colour":
            return ChooseJokerColour(_colour(data["colour"], GEM_COLOURS))
        case "take_matching_token":
            return TakeMatchingToken(_space(data["space"]))
        case "steal_token":
            return StealToken(_colour(data["colour"], COST_COLOURS))
        case "choose_royal":
            return ChooseRoyal(_number_in(data["royal"], "royal", _ROYAL_NUMBERS))
        case "discard_tokens":
            return DiscardTokens(_token_counts(data["tokens"], "tokens"))
    return Pass()


_ACTION_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "use_privilege": (("space",), ()),
    "replenish": ((), ()),
    "take_tokens": (("spaces",), ()),
    "take_gold": (("space",), ()),
    "reserve_card": (("card",), ()),
    "reserve_from_deck": (("level",), ()),
    "buy_card": (("card",), ("payment",)),
    "choose_joker_colour": (("colour",), ()),
    "take_matching_token": (("space",), ()),
    "steal_token": (("colour",), ()),
    "choose_royal": (("royal",), ()),
    "discard_tokens": (("tokens",), ()),
    "pass": ((), ()),
}


def _space_json(space: int) -> list[int]:
    return list(row_column(space))


def _space(value: Any) -> int:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(index) is int and 0 <= index < SIZE for index in value)
    ):
        raise MalformedJSON(f"a space is [row, column], each a whole number from 0 to {SIZE - 1}")
    return space_of(value[0], value[1])


def _spaces(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_LINE:
        raise MalformedJSON(f"spaces must be a list of 1 to {MAX_LINE} [row, column] pairs")
    return tuple(sorted(_space(item) for item in value))


_CARD_NUMBERS = range(len(CARDS))
_LEVELS = range(1, 4)
_ROYAL_NUMBERS = range(len(ROYALS))


def _number_in(value: Any, field: str, numbers: range) -> int:
    """A card, level or royal number that exists in the game: a number no card has is
    refused with the shape of the action, as the API's schema refuses it for the base game."""
    if type(value) is not int or value not in numbers:
        raise MalformedJSON(f"{field} must be a whole number from {numbers[0]} to {numbers[-1]}")
    return value


def _colour(value: Any, colours: tuple[int, ...]) -> int:
    """A colour the action can name at all: a joker joins a gem colour, and a steal takes a
    gem or a pearl (the rules never let gold be stolen), so other names are malformed."""
    colour = COLOUR_BY_NAME.get(value) if isinstance(value, str) else None
    if colour is None or colour not in colours:
        names = ", ".join(COLOUR_NAMES[colour] for colour in colours)
        raise MalformedJSON(f"colour must be one of: {names}")
    return colour


def _token_counts(value: Any, field: str) -> Tokens:
    if not isinstance(value, Mapping):
        raise MalformedJSON(f"{field} must be an object of colour name to count")
    try:
        counts = tokens_from_json(value)
    except ValueError as error:
        raise MalformedJSON(f"{field}: {error}") from None
    if max(counts) > SPACES:
        raise MalformedJSON(f"{field}: a count is at most {SPACES}, the tokens of the whole game")
    return counts
