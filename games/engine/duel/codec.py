"""JSON forms of a Duel game's setup and state (``docs/notation.md``), checked on the way in.

A state read back from JSON must be one the rules could reach: every card in exactly one place,
all 25 tokens and 3 privileges accounted for, royals matching crowns, and a phase the game can
go on from. Derived fields (bonuses, points, crowns, points per colour) are not stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.duel.board import EMPTY, SIZE, SPACES
from games.engine.duel.catalogue import (
    CARDS,
    JOKER,
    LEVELS,
    NO_COLOUR,
    PRIVILEGES,
    PYRAMID_WIDTHS,
    ROYALS,
    TAKE_TOKEN,
    TOKEN_COUNTS,
)
from games.engine.duel.legality import joker_colours, spaces_of, stealable_colours
from games.engine.duel.players import derive
from games.engine.duel.scoring import has_won
from games.engine.duel.setup import check_setup
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    CROWN_THRESHOLDS,
    DISCARD_TOKENS,
    GAME_OVER,
    MAIN,
    MANDATORY,
    PHASES,
    PLAYERS,
    PURCHASE_PHASES,
    RESERVE,
    RESERVE_LIMIT,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
    TOKEN_LIMIT,
    DuelState,
    PlayerState,
    Setup,
)
from games.engine.duel.tokens import (
    COLOUR_BY_NAME,
    COLOUR_NAMES,
    GEM_COLOURS,
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
_MID_TURN_PHASES = (*PURCHASE_PHASES, DISCARD_TOKENS, GAME_OVER)
"""Phases in which a pyramid slot taken this turn may still be empty (refilled at turn's end)."""
_TURN_START_PHASES = (MAIN, MANDATORY, RESERVE)
"""Phases before the turn's mandatory action: nobody can have won yet."""


def setup_to_json(setup: Setup) -> dict[str, Any]:
    return {
        "variant": VARIANT,
        "players": PLAYERS,
        "seed": setup.seed,
        "first_player": setup.first_player,
        "decks": [list(deck) for deck in setup.decks],
        "tokens": [COLOUR_NAMES[token] for token in setup.tokens],
        "bag_draws": [list(order) for order in setup.bag_draws],
    }


def setup_from_json(data: Any) -> Setup:
    fields = _object(data, "setup", _SETUP_KEYS)
    if fields["players"] != PLAYERS:
        raise MalformedJSON(f"Splendor Duel is played by {PLAYERS} players")
    setup = Setup(
        seed=_int(fields["seed"], "seed"),
        first_player=_int(fields["first_player"], "first_player"),
        decks=_int_lists(fields["decks"], "decks"),
        tokens=tuple(_colour(name, "tokens") for name in _list(fields["tokens"], "tokens")),
        bag_draws=_int_lists(fields["bag_draws"], "bag_draws"),
    )
    try:
        check_setup(setup)
    except IllegalAction as error:
        raise MalformedJSON(str(error)) from None
    return setup


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
    _check_consistent(state)
    return state


def _player_from_json(data: Any) -> PlayerState:
    fields = _object(data, "player", _PLAYER_KEYS)
    cards = _int_list(fields["cards"], "cards")
    for card in (*cards, *_int_list(fields["reserved"], "reserved")):
        _check_card(card)
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


def _check_consistent(state: DuelState) -> None:
    if len(state.players) != PLAYERS:
        raise MalformedJSON(f"a state has {PLAYERS} players")
    if state.current not in range(PLAYERS):
        raise MalformedJSON("current must be seat 0 or 1")
    if state.turn < 0 or state.replenishments < 0 or not 0 <= state.passes <= 2:
        raise MalformedJSON("turn, replenishments and passes must be counts within the game")
    if state.passes == 2 and state.phase not in (DISCARD_TOKENS, GAME_OVER):
        raise MalformedJSON("two passes in a row end the game")
    shuffles = state.bag_draws
    if not shuffles or any(sorted(order) != list(range(SPACES)) for order in shuffles):
        raise MalformedJSON("each bag draw must be a shuffle of 0 to 24")
    _check_tokens(state)
    _check_cards(state)
    _check_players(state)
    _check_phase(state)


def _check_tokens(state: DuelState) -> None:
    totals = [
        sum(1 for token in state.board if token == colour)
        + state.bag[colour]
        + sum(player.tokens[colour] for player in state.players)
        for colour in range(len(TOKEN_COUNTS))
    ]
    if tuple(totals) != TOKEN_COUNTS:
        raise MalformedJSON("the tokens on the board, in the bag and in hand must add up to 25")
    privileges = [player.privileges for player in state.players]
    if min(privileges) < 0 or sum(privileges) > PRIVILEGES:
        raise MalformedJSON(f"the players hold 0 to {PRIVILEGES} privileges between them")


def _check_cards(state: DuelState) -> None:
    if len(state.decks) != len(LEVELS) or len(state.pyramid) != len(LEVELS):
        raise MalformedJSON("a state has three decks and three pyramid rows")
    places: list[int] = []
    gaps = 0
    for level, deck, row in zip(LEVELS, state.decks, state.pyramid, strict=True):
        if len(row) != PYRAMID_WIDTHS[level]:
            raise MalformedJSON(f"the level {level} row has {PYRAMID_WIDTHS[level]} slots")
        if deck:
            gaps += row.count(None)
        for card in (*deck, *(card for card in row if card is not None)):
            if _check_card(card).level != level:
                raise MalformedJSON(f"card {card} is not a level {level} card")
            places.append(card)
    if gaps > (1 if state.phase in _MID_TURN_PHASES else 0):
        raise MalformedJSON("a pyramid slot is empty while its deck has cards")
    for player in state.players:
        places.extend(player.cards)
        places.extend(player.reserved)
    if sorted(places) != list(range(len(CARDS))):
        raise MalformedJSON("every card must be in exactly one place")
    royals = [*state.royals, *(royal for player in state.players for royal in player.royals)]
    if sorted(royals) != list(range(len(ROYALS))):
        raise MalformedJSON("every royal card must be in exactly one place")


def _check_players(state: DuelState) -> None:
    for seat, player in enumerate(state.players):
        if len(player.reserved) > RESERVE_LIMIT or len(set(player.reserved)) != len(
            player.reserved
        ):
            raise MalformedJSON(f"a player holds at most {RESERVE_LIMIT} different reserved cards")
        if len(set(player.blind)) != len(player.blind) or not set(player.blind) <= set(
            player.reserved
        ):
            raise MalformedJSON("a blind reserve must be one of the player's reserved cards")
        earlier: set[int] = set()
        for index, (card, colour) in enumerate(zip(player.cards, player.card_colours, strict=True)):
            _check_card_colour(state, seat, index, card, colour, earlier)
            earlier.add(colour)
        due = sum(1 for threshold in CROWN_THRESHOLDS if player.crowns >= threshold)
        if seat == state.current and state.royal_due:
            due -= 1
        if len(player.royals) != due:
            raise MalformedJSON("a player has one royal card per crown threshold reached")
        acting = seat == state.current and state.phase != GAME_OVER
        if sum(player.tokens) > TOKEN_LIMIT and not acting:
            raise MalformedJSON(f"only the player to act may hold more than {TOKEN_LIMIT} tokens")


def _check_card_colour(
    state: DuelState, seat: int, index: int, card: int, colour: int, earlier: set[int]
) -> None:
    own = CARDS[card].colour
    if own != JOKER:
        if colour != own:
            raise MalformedJSON(f"card {card} counts as its own colour only")
        return
    if colour == JOKER:
        player = state.players[seat]
        is_pending = (
            state.phase == CHOOSE_JOKER_COLOUR
            and seat == state.current
            and index == len(player.cards) - 1
        )
        if not is_pending:
            raise MalformedJSON("only a joker being placed may be without a colour")
        return
    if colour not in GEM_COLOURS or colour not in earlier:
        raise MalformedJSON(f"joker card {card} must join a colour of a card bought before it")


def _check_phase(state: DuelState) -> None:
    """The phase must be one the rules could be in, so that the game can always go on."""
    player = state.players[state.current]
    opponent = state.players[1 - state.current]
    if has_won(opponent) or (state.phase in _TURN_START_PHASES and has_won(player)):
        raise MalformedJSON("a player who met a victory condition has already won")
    if state.phase == GAME_OVER and not has_won(player) and state.passes < 2:
        raise MalformedJSON("a game is over once a player wins or both pass in a row")
    in_purchase = state.phase in PURCHASE_PHASES
    if in_purchase != (state.pending_card is not None):
        raise MalformedJSON("a pending card exists exactly while a purchase is being resolved")
    if state.pending_card is not None and (
        not player.cards or player.cards[-1] != state.pending_card
    ):
        raise MalformedJSON("the pending card is the card the player to act bought last")
    if state.royal_due and not in_purchase:
        raise MalformedJSON("a royal card is due only while a purchase is being resolved")
    if state.phase == DISCARD_TOKENS and sum(player.tokens) <= TOKEN_LIMIT:
        raise MalformedJSON(f"discarding needs more than {TOKEN_LIMIT} tokens in hand")
    if state.phase == CHOOSE_JOKER_COLOUR and not joker_colours(player):
        raise MalformedJSON("a joker needs a bonus colour to join")
    if state.phase == TAKE_MATCHING_TOKEN and (
        state.pending_card is None
        or CARDS[state.pending_card].ability != TAKE_TOKEN
        or not spaces_of(state.board, player.card_colours[-1])
    ):
        raise MalformedJSON("taking a matching token needs a Gem card and a token of its colour")
    if state.phase == STEAL_TOKEN and not stealable_colours(opponent):
        raise MalformedJSON("taking a token from the opponent needs one to take")
    if state.phase == CHOOSE_ROYAL and not (state.royal_due and state.royals):
        raise MalformedJSON("a royal card is chosen only when one is due")


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
    return tuple(_int(item, field) for item in _list(value, field))


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


def _check_card(card: int) -> Any:
    if not 0 <= card < len(CARDS):
        raise MalformedJSON(f"there is no card {card}")
    return CARDS[card]
