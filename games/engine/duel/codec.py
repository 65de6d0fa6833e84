"""JSON forms of a Duel game's setup and state (``docs/notation.md``), checked on the way in.

A state read back from JSON must be one the rules could reach: every card in exactly one place,
all 25 tokens and 3 privileges accounted for, royals matching crowns, and a phase the game can
go on from. Derived fields (bonuses, points, crowns, points per colour) are not stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.duel.board import EMPTY, SIZE
from games.engine.duel.catalogue import JOKER, NO_COLOUR, ROYALS, TOKEN_COUNTS
from games.engine.duel.consistency import check_card, check_consistent
from games.engine.duel.players import derive
from games.engine.duel.setup import check_setup
from games.engine.duel.state import (
    PHASES,
    PLAYERS,
    DuelState,
    PlayerState,
    Setup,
)
from games.engine.duel.tokens import (
    COLOUR_BY_NAME,
    COLOUR_NAMES,
    GEM_COLOURS,
    TOKEN_COLOURS,
    Tokens,
    tokens_from_json,
    tokens_to_json,
)
from games.engine.duel.visibility import VARIANT, board_json, colour_json
from games.engine.errors import IllegalAction, MalformedJSON

_SETUP_KEYS = ("variant", "players", "seed", "first_player", "decks", "tokens", "bag_draws")
_STATE_KEYS = (
    "variant", "players", "board", "bag", "bag_draws", "replenishments", "decks", "pyramid",
    "royals", "current", "phase", "turn", "extra_turn", "pending_card", "royal_due", "passes",
)  # fmt: skip
_PLAYER_KEYS = ("tokens", "privileges", "cards", "card_colours", "reserved", "blind", "royals")


def setup_to_json(setup: Setup) -> dict[str, Any]:
    data = {
        "variant": VARIANT,
        "players": PLAYERS,
        "seed": setup.seed,
        "first_player": setup.first_player,
        "decks": [list(deck) for deck in setup.decks],
        "tokens": [COLOUR_NAMES[token] for token in setup.tokens],
        "bag_draws": [list(order) for order in setup.bag_draws],
    }
    if setup.position is not None:
        data["position"] = state_to_json(setup.position)
    return data


def setup_from_json(data: Any) -> Setup:
    """A setup; one with a ``position`` (a fork) must agree with that position."""
    keys: tuple[str, ...] = _SETUP_KEYS
    if isinstance(data, Mapping) and "position" in data:
        keys = (*keys, "position")
    fields = _object(data, "setup", keys)
    if fields["players"] != PLAYERS:
        raise MalformedJSON(f"Splendor Duel is played by {PLAYERS} players")
    setup = Setup(
        seed=_int(fields["seed"], "seed"),
        first_player=_int(fields["first_player"], "first_player"),
        decks=_int_lists(fields["decks"], "decks"),
        tokens=tuple(_colour(name, "tokens") for name in _list(fields["tokens"], "tokens")),
        bag_draws=_int_lists(fields["bag_draws"], "bag_draws"),
    )
    if "position" in fields:
        position = state_from_json(fields["position"])
        if (
            setup.first_player != position.current
            or setup.decks != position.decks
            or setup.bag_draws != position.bag_draws
            or sorted(setup.tokens) != sorted(ALL_TOKENS)
        ):
            raise MalformedJSON(
                "a setup's first player, decks, tokens and bag draws must agree with its position"
            )
        return setup._replace(position=position)
    try:
        check_setup(setup)
    except IllegalAction as error:
        raise MalformedJSON(str(error)) from None
    return setup


ALL_TOKENS = tuple(colour for colour in TOKEN_COLOURS for _ in range(TOKEN_COUNTS[colour]))
"""The 25 tokens in colour order: the ``tokens`` of a setup from a position."""


def state_to_json(state: DuelState) -> dict[str, Any]:
    return {
        "variant": VARIANT,
        "players": [
            {
                "tokens": tokens_to_json(player.tokens),
                "privileges": player.privileges,
                "cards": list(player.cards),
                "card_colours": [colour_json(colour) for colour in player.card_colours],
                "reserved": list(player.reserved),
                "blind": list(player.blind),
                "royals": list(player.royals),
            }
            for player in state.players
        ],
        "board": board_json(state.board),
        "bag": tokens_to_json(state.bag),
        "bag_draws": [list(order) for order in state.bag_draws],
        "replenishments": state.replenishments,
        "decks": [list(deck) for deck in state.decks],
        "pyramid": [list(row) for row in state.pyramid],
        "royals": list(state.royals),
        "current": state.current,
        "phase": state.phase,
        "turn": state.turn,
        "extra_turn": state.extra_turn,
        "pending_card": state.pending_card,
        "royal_due": state.royal_due,
        "passes": state.passes,
    }


def state_from_json(data: Any) -> DuelState:
    fields = _object(data, "state", _STATE_KEYS)
    players = tuple(_player_from_json(item) for item in _list(fields["players"], "players"))
    pending = fields["pending_card"]
    state = DuelState(
        players=players,
        board=_board(fields["board"]),
        bag=_tokens(fields["bag"], "bag"),
        bag_draws=_int_lists(fields["bag_draws"], "bag_draws"),
        replenishments=_int(fields["replenishments"], "replenishments"),
        decks=_int_lists(fields["decks"], "decks"),
        pyramid=tuple(_slots(row) for row in _list(fields["pyramid"], "pyramid")),
        royals=_int_list(fields["royals"], "royals"),
        current=_int(fields["current"], "current"),
        phase=_phase(fields["phase"]),
        turn=_int(fields["turn"], "turn"),
        extra_turn=_bool(fields["extra_turn"], "extra_turn"),
        pending_card=None if pending is None else _int(pending, "pending_card"),
        royal_due=_bool(fields["royal_due"], "royal_due"),
        passes=_int(fields["passes"], "passes"),
    )
    check_consistent(state)
    return state


def _player_from_json(data: Any) -> PlayerState:
    fields = _object(data, "player", _PLAYER_KEYS)
    cards = _int_list(fields["cards"], "cards")
    for card in (*cards, *_int_list(fields["reserved"], "reserved")):
        check_card(card)
    colours = tuple(_card_colour(item) for item in _list(fields["card_colours"], "card_colours"))
    if len(colours) != len(cards):
        raise MalformedJSON("card_colours gives one colour per purchased card")
    royals = _int_list(fields["royals"], "royals")
    if not set(royals) <= set(range(len(ROYALS))):
        raise MalformedJSON("there are royal cards 0 to 3 only")
    return derive(
        tokens=_tokens(fields["tokens"], "tokens"),
        privileges=_int(fields["privileges"], "privileges"),
        cards=cards,
        card_colours=colours,
        reserved=_int_list(fields["reserved"], "reserved"),
        blind=_int_list(fields["blind"], "blind"),
        royals=royals,
    )


def _object(data: Any, what: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise MalformedJSON(f"a {what} must be a JSON object")
    missing = [key for key in keys if key not in data]
    if missing:
        raise MalformedJSON(f"the {what} lacks: {', '.join(missing)}")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise MalformedJSON(f"the {what} has unknown field(s): {', '.join(map(str, unknown))}")
    if "variant" in keys and data["variant"] != VARIANT:
        raise MalformedJSON(f"not a {VARIANT} {what}")
    return data


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedJSON(f"{field} must be a list")
    return value


def _int(value: Any, field: str) -> int:
    if type(value) is not int:
        raise MalformedJSON(f"{field} must be a whole number")
    return value


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise MalformedJSON(f"{field} must be true or false")
    return value


def _int_list(value: Any, field: str) -> tuple[int, ...]:
    items = tuple(_list(value, field))
    # The items' types in one pass in C, not a call per item: a setup's 64 bag draws hold 1,600
    # numbers, read by every replay. ``bool`` is a type of its own here, refused as by ``_int``.
    if not set(map(type, items)) <= _INT_ONLY:
        raise MalformedJSON(f"{field} must be a whole number")
    return items


_INT_ONLY = frozenset((int,))


def _int_lists(value: Any, field: str) -> tuple[tuple[int, ...], ...]:
    return tuple(_int_list(item, field) for item in _list(value, field))


def _slots(value: Any) -> tuple[int | None, ...]:
    return tuple(
        None if item is None else _int(item, "pyramid") for item in _list(value, "pyramid")
    )


def _phase(value: Any) -> str:
    if value not in PHASES:
        raise MalformedJSON(f"unknown phase {value!r}")
    return str(value)


def _colour(value: Any, field: str) -> int:
    if not isinstance(value, str) or value not in COLOUR_BY_NAME:
        raise MalformedJSON(f"{field}: {value!r} is not a token colour")
    return COLOUR_BY_NAME[value]


def _card_colour(value: Any) -> int:
    if value is None:
        return NO_COLOUR
    if value == "joker":
        return JOKER
    colour = _colour(value, "card_colours")
    if colour not in GEM_COLOURS:
        raise MalformedJSON("a card counts as a gem colour, joker or null")
    return colour


def _board(value: Any) -> tuple[int, ...]:
    rows = _list(value, "board")
    if len(rows) != SIZE or any(not isinstance(row, list) or len(row) != SIZE for row in rows):
        raise MalformedJSON(f"the board is {SIZE} rows of {SIZE} spaces")
    return tuple(EMPTY if name is None else _colour(name, "board") for row in rows for name in row)


def _tokens(value: Any, field: str) -> Tokens:
    if not isinstance(value, Mapping):
        raise MalformedJSON(f"{field} must be an object of colour name to count")
    try:
        return tokens_from_json(value)
    except ValueError as error:
        raise MalformedJSON(f"{field}: {error}") from None
