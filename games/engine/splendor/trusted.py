"""The trusted path: applying an action the engine itself listed, without checking it again.

Bots' search, random playouts and the replay of recorded events only ever apply actions that
``legal_actions`` listed (or, for a purchase, a payment ``payment_options`` listed; for a
return, any exact return of the excess). For them, :func:`apply_legal` skips every rule check
that ``transitions.apply_action`` makes, works the default payment out in one unrolled pass,
and builds the next state with one positional constructor per step. Given a legal action it
returns exactly the state ``apply_action`` returns; given anything else its result is
undefined. ``tests/engine/test_trusted_path.py`` plays thousands of games through both.
Whatever comes from outside the engine goes through the validating ``apply_action``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine.splendor.actions import (
    Action,
    BuyCard,
    ChooseNoble,
    Pass,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
)
from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.gems import GEM_COLOURS, Gems, Tokens
from games.engine.splendor.state import (
    CHOOSE_NOBLE,
    GAME_OVER,
    MAIN,
    RETURN_TOKENS,
    TOKEN_LIMIT,
    WINNING_POINTS,
    GameState,
    PlayerState,
)

_Decks = tuple[tuple[int, ...], ...]
_Board = tuple[tuple[int | None, ...], ...]

_CARD_COSTS: tuple[Gems, ...] = tuple(card.cost for card in CARDS)
_CARD_LEVEL_INDEX: tuple[int, ...] = tuple(card.level - 1 for card in CARDS)
_CARD_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
_CARD_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
_NOBLE_POINTS: tuple[int, ...] = tuple(noble.points for noble in NOBLES)
_NOBLE_REQUIREMENTS: tuple[Gems, ...] = tuple(noble.requires for noble in NOBLES)
_FEWEST_CARDS_FOR_A_NOBLE = min(sum(noble.requires) for noble in NOBLES)
_NOBLES_MET: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << noble for noble, requires in enumerate(_NOBLE_REQUIREMENTS)
            if requires[colour] <= count)
        for count in range(len(CARDS) + 1)
    )
    for colour in GEM_COLOURS
)  # fmt: skip
"""Per colour and bonus count, the nobles (one bit each) whose need in that colour it meets."""
_new_tuple = tuple.__new__
"""What a named tuple's generated ``__new__`` calls, called directly to skip a Python frame."""


def apply_legal(state: GameState, action: Action) -> GameState:
    """The state after ``action``, which must be legal in ``state``: nothing is checked."""
    return STEPS[type(action)](state, action)


# Each step reads the state and the acting player by unpacking them whole (one operation rather
# than an attribute read per field) and hands the changed parts to ``_end_action``.


def _take_gems(state: GameState, action: TakeGems) -> GameState:
    players, supply, decks, board, nobles, seat, _, _, passes, _ = state
    tokens, cards, reserved, blind, won, bonuses, points = players[seat]
    taken = list(tokens)
    left = list(supply)
    for colour in action.gems:
        taken[colour] += 1
        left[colour] -= 1
    player = _new_tuple(PlayerState, (tuple(taken), cards, reserved, blind, won, bonuses, points))
    return _end_action(state, player, tuple(left), decks, board, nobles, passes, _MAY_GO_OVER)


def _reserve_card(state: GameState, action: ReserveCard) -> GameState:
    card = action.card
    decks, board = _refill(state.decks, state.board, card)
    return _reserve(state, card, False, decks, board)


def _reserve_from_deck(state: GameState, action: ReserveFromDeck) -> GameState:
    index = action.level - 1
    decks = state.decks
    deck = decks[index]
    rest = list(decks)
    rest[index] = deck[1:]
    return _reserve(state, deck[0], True, tuple(rest), state.board)


def _reserve(state: GameState, card: int, unseen: bool, decks: _Decks, board: _Board) -> GameState:
    tokens, cards, reserved, blind, won, bonuses, points = state.players[state.current]
    supply = state.supply
    if supply[5]:
        supply = (supply[0], supply[1], supply[2], supply[3], supply[4], supply[5] - 1)
        tokens = (tokens[0], tokens[1], tokens[2], tokens[3], tokens[4], tokens[5] + 1)
    player = _new_tuple(
        PlayerState,
        (tokens, cards, (*reserved, card), (*blind, card) if unseen else blind, won, bonuses,
         points),
    )  # fmt: skip
    return _end_action(
        state, player, supply, decks, board, state.nobles, state.passes_this_round, _MAY_GO_OVER
    )


def _buy_card(state: GameState, action: BuyCard) -> GameState:
    players, left, decks, board, nobles, seat, _, _, passes, _ = state
    held, cards, reserved, blind, won, bonuses, points = players[seat]
    card = action.card
    paid = action.payment
    if paid is None:
        paid = _default_payment(held, bonuses, _CARD_COSTS[card])
    tokens = (
        held[0] - paid[0], held[1] - paid[1], held[2] - paid[2],
        held[3] - paid[3], held[4] - paid[4], held[5] - paid[5],
    )  # fmt: skip
    supply = (
        left[0] + paid[0], left[1] + paid[1], left[2] + paid[2],
        left[3] + paid[3], left[4] + paid[4], left[5] + paid[5],
    )  # fmt: skip
    gained = list(bonuses)
    gained[_CARD_COLOUR[card]] += 1
    if card in reserved:
        reserved = tuple([kept for kept in reserved if kept != card])
        if card in blind:
            blind = tuple([kept for kept in blind if kept != card])
    else:
        decks, board = _refill(decks, board, card)
    player = _new_tuple(
        PlayerState,
        (tokens, (*cards, card), reserved, blind, won, tuple(gained), points + _CARD_POINTS[card]),
    )
    return _end_action(state, player, supply, decks, board, nobles, passes, _MAY_VISIT)


def _pass(state: GameState, action: Pass) -> GameState:
    players, supply, decks, board, nobles, seat, _, _, passes, _ = state
    return _end_action(state, players[seat], supply, decks, board, nobles, passes + 1, _MAY_VISIT)


def _return_tokens(state: GameState, action: ReturnTokens) -> GameState:
    players, left, decks, board, nobles, seat, _, _, passes, _ = state
    held, cards, reserved, blind, won, bonuses, points = players[seat]
    back = action.tokens
    tokens = (
        held[0] - back[0], held[1] - back[1], held[2] - back[2],
        held[3] - back[3], held[4] - back[4], held[5] - back[5],
    )  # fmt: skip
    supply = (
        left[0] + back[0], left[1] + back[1], left[2] + back[2],
        left[3] + back[3], left[4] + back[4], left[5] + back[5],
    )  # fmt: skip
    player = _new_tuple(PlayerState, (tokens, cards, reserved, blind, won, bonuses, points))
    return _end_action(state, player, supply, decks, board, nobles, passes, _MAY_VISIT)


def _choose_noble(state: GameState, action: ChooseNoble) -> GameState:
    players, supply, decks, board, nobles, seat, _, _, passes, _ = state
    noble = action.noble
    player = _visited(players[seat], noble)
    left = tuple([other for other in nobles if other != noble])
    return _end_action(state, player, supply, decks, board, left, passes, _VISITED)


def _default_payment(held: Tokens, bonuses: Gems, cost: Gems) -> Tokens:
    """Coloured tokens first, gold for the rest: ``legality.default_payment``, unrolled."""
    gold = 0
    white = cost[0] - bonuses[0]
    if white < 0:
        white = 0
    elif white > held[0]:
        gold += white - held[0]
        white = held[0]
    blue = cost[1] - bonuses[1]
    if blue < 0:
        blue = 0
    elif blue > held[1]:
        gold += blue - held[1]
        blue = held[1]
    green = cost[2] - bonuses[2]
    if green < 0:
        green = 0
    elif green > held[2]:
        gold += green - held[2]
        green = held[2]
    red = cost[3] - bonuses[3]
    if red < 0:
        red = 0
    elif red > held[3]:
        gold += red - held[3]
        red = held[3]
    black = cost[4] - bonuses[4]
    if black < 0:
        black = 0
    elif black > held[4]:
        gold += black - held[4]
        black = held[4]
    return (white, blue, green, red, black, gold)


_VISITED = 0
"""What the action left to do: nothing but pass play on (a noble was just chosen)."""
_MAY_VISIT = 1
"""A noble may visit: the action did not add tokens."""
_MAY_GO_OVER = 2
"""The player may hold more than ten tokens and must then return some; else a noble may visit."""


def _end_action(
    state: GameState,
    player: PlayerState,
    supply: Tokens,
    decks: _Decks,
    board: _Board,
    nobles: tuple[int, ...],
    passes: int,
    left_to_do: int,
) -> GameState:
    """The one builder of the state that ends an action (as ``transitions._conclude_action``).

    Returning tokens above ten comes first, then at most one noble's visit (the player chooses
    when several qualify), then the next seat acts; at the end of a round the game ends if
    someone has 15 points or every player passed. ``left_to_do`` says which of those checks
    the action can call for."""
    seat = current = state.current
    turn = state.turn
    phase = MAIN
    pending: tuple[int, ...] = ()
    if left_to_do == _MAY_GO_OVER and sum(player[0]) > TOKEN_LIMIT:
        phase = RETURN_TOKENS
    else:
        if left_to_do and len(player[1]) >= _FEWEST_CARDS_FOR_A_NOBLE:
            bonuses = player[5]
            met = (
                _NOBLES_MET[0][bonuses[0]] & _NOBLES_MET[1][bonuses[1]]
                & _NOBLES_MET[2][bonuses[2]] & _NOBLES_MET[3][bonuses[3]]
                & _NOBLES_MET[4][bonuses[4]]
            )  # fmt: skip
            qualifying = [noble for noble in nobles if met >> noble & 1] if met else []
            if len(qualifying) > 1:
                phase = CHOOSE_NOBLE
                pending = tuple(qualifying)
            elif qualifying:
                noble = qualifying[0]
                player = _visited(player, noble)
                nobles = tuple([other for other in nobles if other != noble])
        if phase == MAIN:
            turn += 1
            current += 1
    players = list(state.players)
    players[seat] = player
    if current == len(players):
        if passes == current or max([other[6] for other in players]) >= WINNING_POINTS:
            current, phase = seat, GAME_OVER
        else:
            current = passes = 0
    return _new_tuple(
        GameState,
        (tuple(players), supply, decks, board, nobles, current, phase, turn, passes, pending),
    )


def _visited(player: PlayerState, noble: int) -> PlayerState:
    """The player once ``noble`` has visited them."""
    tokens, cards, reserved, blind, won, bonuses, points = player
    return _new_tuple(
        PlayerState,
        (tokens, cards, reserved, blind, (*won, noble), bonuses, points + _NOBLE_POINTS[noble]),
    )


def _refill(decks: _Decks, board: _Board, card: int) -> tuple[_Decks, _Board]:
    """The decks and board once the card's slot is filled from the top of its level's deck."""
    index = _CARD_LEVEL_INDEX[card]
    deck = decks[index]
    row = list(board[index])
    if deck:
        row[row.index(card)] = deck[0]
        new_decks = list(decks)
        new_decks[index] = deck[1:]
        decks = tuple(new_decks)
    else:
        row[row.index(card)] = None
    new_board = list(board)
    new_board[index] = tuple(row)
    return decks, tuple(new_board)


STEPS: dict[type, Callable[[GameState, Any], GameState]] = {
    TakeGems: _take_gems,
    ReserveCard: _reserve_card,
    ReserveFromDeck: _reserve_from_deck,
    BuyCard: _buy_card,
    Pass: _pass,
    ReturnTokens: _return_tokens,
    ChooseNoble: _choose_noble,
}
"""The step for each action type: ``apply_legal`` without its one dispatching call, for the
facade to call directly."""
