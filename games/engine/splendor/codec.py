"""JSON forms of a game's setup and state (``docs/notation.md``), checked on the way in.

A state read back from JSON must be one the rules could reach, and a setup one that
``new_game`` could draw (``consistency`` says which). Derived fields (bonuses, points) are not
stored; they are recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import MalformedJSON
from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.consistency import check_card, check_noble, check_setup, check_state
from games.engine.splendor.gems import GEM_COLOURS, Tokens, tokens_from_json, tokens_to_json
from games.engine.splendor.state import GameState, PlayerState, Setup

VARIANT = "splendor"


def setup_to_json(setup: Setup) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": VARIANT,
        "players": setup.players,
        "seed": setup.seed,
        "decks": [list(deck) for deck in setup.decks],
        "nobles": list(setup.nobles),
    }
    if setup.position is not None:
        data["position"] = state_to_json(setup.position)
    return data


def setup_from_json(data: Any) -> Setup:
    """A setup; one with a ``position`` (a fork) must agree with that position."""
    keys: tuple[str, ...] = ("variant", "players", "seed", "decks", "nobles")
    if isinstance(data, Mapping) and "position" in data:
        keys = (*keys, "position")
    fields = _object(data, "setup", keys)
    setup = Setup(
        players=_int(fields["players"], "players"),
        seed=_int(fields["seed"], "seed"),
        decks=tuple(_int_list(deck, "decks") for deck in _list(fields["decks"], "decks")),
        nobles=_int_list(fields["nobles"], "nobles"),
    )
    if "position" not in fields:
        check_setup(setup)
        return setup
    position = state_from_json(fields["position"])
    if (
        setup.players != len(position.players)
        or setup.decks != position.decks
        or sorted(setup.nobles) != sorted(_all_nobles(position))
    ):
        raise MalformedJSON("a setup's players, decks and nobles must agree with its position")
    return setup._replace(position=position)


def _all_nobles(state: GameState) -> list[int]:
    return [*state.nobles, *(noble for player in state.players for noble in player.nobles)]


def state_to_json(state: GameState) -> dict[str, Any]:
    return {
        "variant": VARIANT,
        "players": [
            {
                "tokens": tokens_to_json(player.tokens),
                "cards": list(player.cards),
                "reserved": list(player.reserved),
                "blind": list(player.blind),
                "nobles": list(player.nobles),
            }
            for player in state.players
        ],
        "supply": tokens_to_json(state.supply),
        "decks": [list(deck) for deck in state.decks],
        "board": [list(row) for row in state.board],
        "nobles": list(state.nobles),
        "current": state.current,
        "phase": state.phase,
        "turn": state.turn,
        "passes_this_round": state.passes_this_round,
        "pending_nobles": list(state.pending_nobles),
    }


def state_from_json(data: Any) -> GameState:
    fields = _object(
        data,
        "state",
        (
            "variant",
            "players",
            "supply",
            "decks",
            "board",
            "nobles",
            "current",
            "phase",
            "turn",
            "passes_this_round",
            "pending_nobles",
        ),
    )
    players = tuple(_player_from_json(item) for item in _list(fields["players"], "players"))
    board = tuple(_slots(row) for row in _list(fields["board"], "board"))
    state = GameState(
        players=players,
        supply=_tokens(fields["supply"], "supply"),
        decks=tuple(_int_list(deck, "decks") for deck in _list(fields["decks"], "decks")),
        board=board,
        nobles=_int_list(fields["nobles"], "nobles"),
        current=_int(fields["current"], "current"),
        phase=fields["phase"],
        turn=_int(fields["turn"], "turn"),
        passes_this_round=_int(fields["passes_this_round"], "passes_this_round"),
        pending_nobles=_int_list(fields["pending_nobles"], "pending_nobles"),
    )
    check_state(state)
    return state


def _player_from_json(data: Any) -> PlayerState:
    fields = _object(data, "player", ("tokens", "cards", "reserved", "blind", "nobles"))
    cards = _int_list(fields["cards"], "cards")
    nobles = _int_list(fields["nobles"], "nobles")
    for card in cards:
        check_card(card)
    for noble in nobles:
        check_noble(noble)
    bonuses = [0] * len(GEM_COLOURS)
    for card in cards:
        bonuses[CARDS[card].colour] += 1
    points = sum(CARDS[card].points for card in cards) + sum(NOBLES[n].points for n in nobles)
    return PlayerState(
        tokens=_tokens(fields["tokens"], "tokens"),
        cards=cards,
        reserved=_int_list(fields["reserved"], "reserved"),
        blind=_int_list(fields["blind"], "blind"),
        nobles=nobles,
        bonuses=tuple(bonuses),
        points=points,
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


def _int_list(value: Any, field: str) -> tuple[int, ...]:
    items = tuple(_list(value, field))
    # The items' types in one pass in C, not a call per item: a setup lists every card, and
    # a replay reads one. ``bool`` is a type of its own here, refused as ``_int`` refuses it.
    if not set(map(type, items)) <= _INT_ONLY:
        raise MalformedJSON(f"{field} must be a whole number")
    return items


_INT_ONLY = frozenset((int,))


def _slots(value: Any) -> tuple[int | None, ...]:
    return tuple(None if item is None else _int(item, "board") for item in _list(value, "board"))


def _tokens(value: Any, field: str) -> Tokens:
    if not isinstance(value, Mapping):
        raise MalformedJSON(f"{field} must be an object of colour name to count")
    try:
        return tokens_from_json(value)
    except ValueError as error:
        raise MalformedJSON(f"{field}: {error}") from None
