"""JSON forms of a game's setup and state (``docs/notation.md``), checked on the way in.

A state read back from JSON must be one the rules could reach: every card in exactly one place,
every token accounted for. Derived fields (bonuses, points) are not stored; they are recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import MalformedJSON
from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.gems import GEM_COLOURS, Tokens, tokens_from_json, tokens_to_json
from games.engine.splendor.setup import GEMS_PER_COLOUR, GOLD_TOKENS
from games.engine.splendor.state import (
    BOARD_WIDTH,
    CHOOSE_NOBLE,
    PHASES,
    RETURN_TOKENS,
    TOKEN_LIMIT,
    GameState,
    PlayerState,
    Setup,
)

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
    _check_consistent(state)
    return state


def _player_from_json(data: Any) -> PlayerState:
    fields = _object(data, "player", ("tokens", "cards", "reserved", "blind", "nobles"))
    cards = _int_list(fields["cards"], "cards")
    nobles = _int_list(fields["nobles"], "nobles")
    for card in cards:
        _check_card(card)
    for noble in nobles:
        _check_noble(noble)
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


def _check_consistent(state: GameState) -> None:
    seats = len(state.players)
    if seats not in GEMS_PER_COLOUR:
        raise MalformedJSON("a state has 2 to 4 players")
    if state.phase not in PHASES:
        raise MalformedJSON(f"unknown phase {state.phase!r}")
    if not 0 <= state.current < seats:
        raise MalformedJSON("current must be a seat of the game")
    if state.turn < 0 or not 0 <= state.passes_this_round <= seats:
        raise MalformedJSON("turn and passes_this_round must be counts within the game")
    if len(state.decks) != 3 or len(state.board) != 3:
        raise MalformedJSON("a state has three decks and three board rows")
    if any(len(row) != BOARD_WIDTH for row in state.board):
        raise MalformedJSON(f"each board row has {BOARD_WIDTH} slots")
    places: list[int] = []
    for level, (deck, row) in enumerate(zip(state.decks, state.board, strict=True), start=1):
        if deck and None in row:
            raise MalformedJSON(f"a level {level} slot is empty while its deck has cards")
        for card in (*deck, *(card for card in row if card is not None)):
            if _check_card(card).level != level:
                raise MalformedJSON(f"card {card} is not a level {level} card")
            places.append(card)
    for player in state.players:
        if len(set(player.blind)) != len(player.blind):
            raise MalformedJSON("a blind reserve is listed once")
        if not set(player.blind) <= set(player.reserved):
            raise MalformedJSON("a blind reserve must be one of the player's reserved cards")
        if len(player.reserved) > 3:
            raise MalformedJSON("a player holds at most three reserved cards")
        places.extend(player.cards)
        places.extend(player.reserved)
    if sorted(places) != list(range(len(CARDS))):
        raise MalformedJSON("every card must be in exactly one place")
    nobles = [*state.nobles, *(noble for player in state.players for noble in player.nobles)]
    if len(set(nobles)) != len(nobles) or len(nobles) != seats + 1:
        raise MalformedJSON("the game's nobles must each be in exactly one place")
    for noble in nobles:
        _check_noble(noble)
    _check_phase(state)
    totals = [
        state.supply[colour] + sum(player.tokens[colour] for player in state.players)
        for colour in range(len(state.supply))
    ]
    gems = GEMS_PER_COLOUR[seats]
    if totals != [gems] * len(GEM_COLOURS) + [GOLD_TOKENS]:
        raise MalformedJSON("the tokens in the supply and the players' hands must add up")


def _check_phase(state: GameState) -> None:
    """The phase must be one the rules could be in, so that the game can always go on."""
    acting = state.players[state.current]
    for seat, player in enumerate(state.players):
        returning = state.phase == RETURN_TOKENS and seat == state.current
        if sum(player.tokens) > TOKEN_LIMIT and not returning:
            raise MalformedJSON(f"only a player returning tokens may hold more than {TOKEN_LIMIT}")
    if state.phase == RETURN_TOKENS and sum(acting.tokens) <= TOKEN_LIMIT:
        raise MalformedJSON(f"returning tokens needs more than {TOKEN_LIMIT} in hand")
    if state.phase != CHOOSE_NOBLE:
        if state.pending_nobles:
            raise MalformedJSON("pending nobles exist only while a noble is being chosen")
        return
    pending = set(state.pending_nobles)
    if len(pending) < 2 or len(pending) != len(state.pending_nobles):
        raise MalformedJSON("a noble choice needs two or more different nobles")
    if not pending <= set(state.nobles):
        raise MalformedJSON("pending nobles must be on the table")
    for noble in pending:
        if any(
            have < need for have, need in zip(acting.bonuses, NOBLES[noble].requires, strict=True)
        ):
            raise MalformedJSON(f"the player to act does not qualify for noble {noble}")


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
    return tuple(_int(item, field) for item in _list(value, field))


def _slots(value: Any) -> tuple[int | None, ...]:
    return tuple(None if item is None else _int(item, "board") for item in _list(value, "board"))


def _tokens(value: Any, field: str) -> Tokens:
    if not isinstance(value, Mapping):
        raise MalformedJSON(f"{field} must be an object of colour name to count")
    try:
        return tokens_from_json(value)
    except ValueError as error:
        raise MalformedJSON(f"{field}: {error}") from None


def _check_card(card: int) -> Any:
    if not 0 <= card < len(CARDS):
        raise MalformedJSON(f"there is no card {card}")
    return CARDS[card]


def _check_noble(noble: int) -> None:
    if not 0 <= noble < len(NOBLES):
        raise MalformedJSON(f"there is no noble {noble}")
