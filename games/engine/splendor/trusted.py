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
from games.engine.splendor.gems import Gems, Tokens
from games.engine.splendor.legality import qualifying_nobles
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
_FEWEST_CARDS_FOR_A_NOBLE = min(sum(noble.requires) for noble in NOBLES)
_new_tuple = tuple.__new__
"""What a named tuple's generated ``__new__`` calls, called directly to skip a Python frame."""


def apply_legal(state: GameState, action: Action) -> GameState:
    """The state after ``action``, which must be legal in ``state``: nothing is checked."""
    return _STEPS[type(action)](state, action)


def _take_gems(state: GameState, action: TakeGems) -> GameState:
    supply = list(state.supply)
    player = state.players[state.current]
    tokens = list(player.tokens)
    for colour in action.gems:
        supply[colour] -= 1
        tokens[colour] += 1
    player = _new_tuple(
        PlayerState,
        (
            tuple(tokens),
            player.cards,
            player.reserved,
            player.blind,
            player.nobles,
            player.bonuses,
            player.points,
        ),
    )
    return _finish(state, player, tuple(supply), state.decks, state.board, state.passes_this_round)


def _reserve_card(state: GameState, action: ReserveCard) -> GameState:
    card = action.card
    decks, board = _refill(state.decks, state.board, card)
    return _reserve(state, card, False, decks, board)


def _reserve_from_deck(state: GameState, action: ReserveFromDeck) -> GameState:
    index = action.level - 1
    deck = state.decks[index]
    decks = list(state.decks)
    decks[index] = deck[1:]
    return _reserve(state, deck[0], True, tuple(decks), state.board)


def _reserve(state: GameState, card: int, blind: bool, decks: _Decks, board: _Board) -> GameState:
    supply = state.supply
    player = state.players[state.current]
    tokens = player.tokens
    if supply[5]:
        supply = (supply[0], supply[1], supply[2], supply[3], supply[4], supply[5] - 1)
        tokens = (tokens[0], tokens[1], tokens[2], tokens[3], tokens[4], tokens[5] + 1)
    player = _new_tuple(
        PlayerState,
        (
            tokens,
            player.cards,
            (*player.reserved, card),
            (*player.blind, card) if blind else player.blind,
            player.nobles,
            player.bonuses,
            player.points,
        ),
    )
    return _finish(state, player, supply, decks, board, state.passes_this_round)


def _buy_card(state: GameState, action: BuyCard) -> GameState:
    card = action.card
    player = state.players[state.current]
    payment = action.payment
    if payment is None:
        payment = _default_payment(player.tokens, player.bonuses, _CARD_COSTS[card])
    held = player.tokens
    left = state.supply
    tokens = (
        held[0] - payment[0], held[1] - payment[1], held[2] - payment[2],
        held[3] - payment[3], held[4] - payment[4], held[5] - payment[5],
    )  # fmt: skip
    supply = (
        left[0] + payment[0], left[1] + payment[1], left[2] + payment[2],
        left[3] + payment[3], left[4] + payment[4], left[5] + payment[5],
    )  # fmt: skip
    bonuses_list = list(player.bonuses)
    bonuses_list[_CARD_COLOUR[card]] += 1
    reserved = player.reserved
    blind = player.blind
    decks = state.decks
    board = state.board
    if card in reserved:
        reserved = tuple(kept for kept in reserved if kept != card)
        if card in blind:
            blind = tuple(kept for kept in blind if kept != card)
    else:
        decks, board = _refill(decks, board, card)
    player = _new_tuple(
        PlayerState,
        (
            tokens,
            (*player.cards, card),
            reserved,
            blind,
            player.nobles,
            tuple(bonuses_list),
            player.points + _CARD_POINTS[card],
        ),
    )
    return _finish(state, player, supply, decks, board, state.passes_this_round)


def _pass(state: GameState, action: Pass) -> GameState:
    player = state.players[state.current]
    return _finish(
        state, player, state.supply, state.decks, state.board, state.passes_this_round + 1
    )


def _return_tokens(state: GameState, action: ReturnTokens) -> GameState:
    returned = action.tokens
    player = state.players[state.current]
    held = player.tokens
    supply = state.supply
    player = _new_tuple(
        PlayerState,
        (
            tuple([held[colour] - returned[colour] for colour in range(6)]),
            player.cards,
            player.reserved,
            player.blind,
            player.nobles,
            player.bonuses,
            player.points,
        ),
    )
    return _finish(
        state,
        player,
        tuple([supply[colour] + returned[colour] for colour in range(6)]),
        state.decks,
        state.board,
        state.passes_this_round,
    )


def _choose_noble(state: GameState, action: ChooseNoble) -> GameState:
    noble = action.noble
    seat = state.current
    player = state.players[seat]
    player = _new_tuple(
        PlayerState,
        (
            player.tokens,
            player.cards,
            player.reserved,
            player.blind,
            (*player.nobles, noble),
            player.bonuses,
            player.points + _NOBLE_POINTS[noble],
        ),
    )
    return _finish(
        state, player, state.supply, state.decks, state.board, state.passes_this_round,
        tuple([left for left in state.nobles if left != noble]),
    )  # fmt: skip


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


def _finish(
    state: GameState,
    player: PlayerState,
    supply: tuple[int, ...],
    decks: _Decks,
    board: _Board,
    passes: int,
    nobles: tuple[int, ...] | None = None,
) -> GameState:
    """The one builder of the state that ends an action (as ``transitions._conclude_action``):
    returning tokens above ten comes first, then at most one noble's visit (the player chooses
    when several qualify), then the next seat acts; at the end of a round the game ends if
    someone has 15 points or every player passed. ``nobles`` is given after a chosen visit:
    the nobles left, no other visit this turn."""
    seat = state.current
    others = state.players
    players = (*others[:seat], player, *others[seat + 1 :])
    if nobles is None:
        if sum(player.tokens) > TOKEN_LIMIT:
            return _new_tuple(
                GameState,
                (players, supply, decks, board, state.nobles, seat, RETURN_TOKENS, state.turn,
                 passes, ()),
            )  # fmt: skip
        nobles = state.nobles
        if len(player.cards) >= _FEWEST_CARDS_FOR_A_NOBLE:
            candidates = qualifying_nobles(state, player)
            if len(candidates) > 1:
                return _new_tuple(
                    GameState,
                    (players, supply, decks, board, nobles, seat, CHOOSE_NOBLE, state.turn,
                     passes, candidates),
                )  # fmt: skip
            if candidates:
                noble = candidates[0]
                player = _new_tuple(
                    PlayerState,
                    (player.tokens, player.cards, player.reserved, player.blind,
                     (*player.nobles, noble), player.bonuses,
                     player.points + _NOBLE_POINTS[noble]),
                )  # fmt: skip
                players = _with_player(state.players, seat, player)
                nobles = tuple([left for left in nobles if left != noble])
    current = seat + 1
    phase = MAIN
    if current == len(players):
        if passes == current or max([other.points for other in players]) >= WINNING_POINTS:
            current, phase = seat, GAME_OVER
        else:
            current, passes = 0, 0
    return _new_tuple(
        GameState,
        (players, supply, decks, board, nobles, current, phase, state.turn + 1, passes, ()),
    )


def _with_player(
    players: tuple[PlayerState, ...], seat: int, player: PlayerState
) -> tuple[PlayerState, ...]:
    if seat == 0:
        return (player, *players[1:])
    return (*players[:seat], player, *players[seat + 1 :])


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


_STEPS: dict[type, Callable[[GameState, Any], GameState]] = {
    TakeGems: _take_gems,
    ReserveCard: _reserve_card,
    ReserveFromDeck: _reserve_from_deck,
    BuyCard: _buy_card,
    Pass: _pass,
    ReturnTokens: _return_tokens,
    ChooseNoble: _choose_noble,
}
