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
from itertools import combinations_with_replacement
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
from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.gems import GEM_COLOURS, Gems
from games.engine.splendor.state import (
    BOARD_WIDTH,
    TOKEN_LIMIT,
    GameState,
    PlayerState,
)
from games.engine.splendor.turn_end import MAY_VISIT, OVER, VISITED, end_action, visited, without

_Decks = tuple[tuple[int, ...], ...]
_Board = tuple[tuple[int | None, ...], ...]

_CARD_COSTS: tuple[Gems, ...] = tuple(card.cost for card in CARDS)
_CARD_LEVEL_INDEX: tuple[int, ...] = tuple(card.level - 1 for card in CARDS)
_CARD_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
_CARD_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
_new_tuple = tuple.__new__
"""What a named tuple's generated ``__new__`` calls, called directly to skip a Python frame."""


def apply_legal(state: GameState, action: Action) -> GameState:
    """The state after ``action``, which must be legal in ``state``: nothing is checked."""
    return STEPS[type(action)](state, action)


# Each step reads the state and the acting player by unpacking them whole (one operation rather
# than an attribute read per field), works on token vectors colour by colour (cheaper than any
# loop or ``map`` over six counts), and hands the changed parts to ``end_action``.

_TAKEN: dict[tuple[int, ...], Gems] = {
    gems: tuple(gems.count(colour) for colour in GEM_COLOURS)
    for count in range(1, 4)
    for gems in combinations_with_replacement(GEM_COLOURS, count)
}
"""The tokens of each colour a take adds, by the take's gems (a legal take is sorted)."""
_ONE_BONUS: tuple[Gems, ...] = tuple(
    tuple(int(colour == other) for other in GEM_COLOURS) for colour in GEM_COLOURS
)


def _take_gems(state: GameState, action: TakeGems) -> GameState:
    players, supply, decks, board, nobles, seat, _, turn, passes, _ = state
    (white, blue, green, red, black, gold), cards, reserved, blind, won, bonuses, points = players[
        seat
    ]
    add_white, add_blue, add_green, add_red, add_black = _TAKEN[action.gems]
    white += add_white
    blue += add_blue
    green += add_green
    red += add_red
    black += add_black
    left_white, left_blue, left_green, left_red, left_black, left_gold = supply
    player = _new_tuple(
        PlayerState,
        ((white, blue, green, red, black, gold), cards, reserved, blind, won, bonuses, points),
    )
    supply = (
        left_white - add_white, left_blue - add_blue, left_green - add_green,
        left_red - add_red, left_black - add_black, left_gold,
    )  # fmt: skip
    check = OVER if white + blue + green + red + black + gold > TOKEN_LIMIT else MAY_VISIT
    return end_action(players, seat, turn, player, supply, decks, board, nobles, passes, check)


def _reserve_card(state: GameState, action: ReserveCard) -> GameState:
    card = action.card
    decks, board = _refill(state.decks, state.board, card)
    return _reserve(state, card, False, decks, board)


def _reserve_from_deck(state: GameState, action: ReserveFromDeck) -> GameState:
    index = action.level - 1
    decks = state.decks
    deck = decks[index]
    return _reserve(state, deck[0], True, _with_level(decks, index, deck[1:]), state.board)


def _reserve(state: GameState, card: int, unseen: bool, decks: _Decks, board: _Board) -> GameState:
    players, supply, _, _, nobles, seat, _, turn, passes, _ = state
    tokens, cards, reserved, blind, won, bonuses, points = players[seat]
    white, blue, green, red, black, gold = supply
    if not gold:
        over = sum(tokens) > TOKEN_LIMIT  # never in a game: no main phase starts above ten
    else:
        supply = (white, blue, green, red, black, gold - 1)
        white, blue, green, red, black, gold = tokens
        tokens = (white, blue, green, red, black, gold + 1)
        over = white + blue + green + red + black + gold >= TOKEN_LIMIT
    check = OVER if over else MAY_VISIT
    player = _new_tuple(
        PlayerState,
        (tokens, cards, (*reserved, card), (*blind, card) if unseen else blind, won, bonuses,
         points),
    )  # fmt: skip
    return end_action(players, seat, turn, player, supply, decks, board, nobles, passes, check)


def _buy_card(state: GameState, action: BuyCard) -> GameState:
    players, supply, decks, board, nobles, seat, _, turn, passes, _ = state
    held, cards, reserved, blind, won, bonuses, points = players[seat]
    card = action.card
    white, blue, green, red, black, gold = held
    left_white, left_blue, left_green, left_red, left_black, left_gold = supply
    paid = action.payment
    if paid is None:
        # Coloured tokens first, gold for the rest (``legality.default_payment``), unrolled.
        cost_white, cost_blue, cost_green, cost_red, cost_black = _CARD_COSTS[card]
        bonus_white, bonus_blue, bonus_green, bonus_red, bonus_black = bonuses
        due = cost_white - bonus_white
        if due > 0:
            if due > white:
                gold -= due - white
                left_gold += due - white
                due = white
            white -= due
            left_white += due
        due = cost_blue - bonus_blue
        if due > 0:
            if due > blue:
                gold -= due - blue
                left_gold += due - blue
                due = blue
            blue -= due
            left_blue += due
        due = cost_green - bonus_green
        if due > 0:
            if due > green:
                gold -= due - green
                left_gold += due - green
                due = green
            green -= due
            left_green += due
        due = cost_red - bonus_red
        if due > 0:
            if due > red:
                gold -= due - red
                left_gold += due - red
                due = red
            red -= due
            left_red += due
        due = cost_black - bonus_black
        if due > 0:
            if due > black:
                gold -= due - black
                left_gold += due - black
                due = black
            black -= due
            left_black += due
    else:
        pay_white, pay_blue, pay_green, pay_red, pay_black, pay_gold = paid
        white -= pay_white
        blue -= pay_blue
        green -= pay_green
        red -= pay_red
        black -= pay_black
        gold -= pay_gold
        left_white += pay_white
        left_blue += pay_blue
        left_green += pay_green
        left_red += pay_red
        left_black += pay_black
        left_gold += pay_gold
    bonus_white, bonus_blue, bonus_green, bonus_red, bonus_black = bonuses
    add_white, add_blue, add_green, add_red, add_black = _ONE_BONUS[_CARD_COLOUR[card]]
    if card in reserved:
        reserved = without(reserved, card)
        if card in blind:
            blind = without(blind, card)
    else:
        decks, board = _refill(decks, board, card)
    player = _new_tuple(
        PlayerState,
        ((white, blue, green, red, black, gold), (*cards, card), reserved, blind, won,
         (bonus_white + add_white, bonus_blue + add_blue, bonus_green + add_green,
          bonus_red + add_red, bonus_black + add_black), points + _CARD_POINTS[card]),
    )  # fmt: skip
    supply = (left_white, left_blue, left_green, left_red, left_black, left_gold)
    return end_action(players, seat, turn, player, supply, decks, board, nobles, passes, MAY_VISIT)


def _pass(state: GameState, action: Pass) -> GameState:
    players, supply, decks, board, nobles, seat, _, turn, passes, _ = state
    return end_action(
        players, seat, turn, players[seat], supply, decks, board, nobles, passes + 1, MAY_VISIT
    )


def _return_tokens(state: GameState, action: ReturnTokens) -> GameState:
    players, supply, decks, board, nobles, seat, _, turn, passes, _ = state
    (white, blue, green, red, black, gold), cards, reserved, blind, won, bonuses, points = players[
        seat
    ]
    back_white, back_blue, back_green, back_red, back_black, back_gold = action.tokens
    left_white, left_blue, left_green, left_red, left_black, left_gold = supply
    player = _new_tuple(
        PlayerState,
        ((white - back_white, blue - back_blue, green - back_green, red - back_red,
          black - back_black, gold - back_gold), cards, reserved, blind, won, bonuses, points),
    )  # fmt: skip
    supply = (
        left_white + back_white, left_blue + back_blue, left_green + back_green,
        left_red + back_red, left_black + back_black, left_gold + back_gold,
    )  # fmt: skip
    return end_action(players, seat, turn, player, supply, decks, board, nobles, passes, MAY_VISIT)


def _choose_noble(state: GameState, action: ChooseNoble) -> GameState:
    players, supply, decks, board, nobles, seat, _, turn, passes, _ = state
    noble = action.noble
    player = visited(players[seat], noble)
    return end_action(
        players, seat, turn, player, supply, decks, board, without(nobles, noble), passes, VISITED
    )


def _refill(decks: _Decks, board: _Board, card: int) -> tuple[_Decks, _Board]:
    """The decks and board once the card's slot is filled from the top of its level's deck."""
    index = _CARD_LEVEL_INDEX[card]
    deck = decks[index]
    if deck:
        top: int | None = deck[0]
        deck = deck[1:]
    else:
        top = None
    row = board[index]
    if len(row) == BOARD_WIDTH:  # always in a game: the four slots compared in turn, no list built
        first, second, third, fourth = row
        if first == card:
            row = (top, second, third, fourth)
        elif second == card:
            row = (first, top, third, fourth)
        elif third == card:
            row = (first, second, top, fourth)
        else:
            row = (first, second, third, top)
    else:
        slots = list(row)
        slots[slots.index(card)] = top
        row = tuple(slots)
    # Both replaced at the level's index in one pass (``_with_level`` twice, unrolled).
    first_deck, second_deck, third_deck = decks
    first_row, second_row, third_row = board
    if index == 0:
        return (deck, second_deck, third_deck), (row, second_row, third_row)
    if index == 1:
        return (first_deck, deck, third_deck), (first_row, row, third_row)
    return (first_deck, second_deck, deck), (first_row, second_row, row)


def _with_level(levels: tuple[Any, ...], index: int, level: Any) -> tuple[Any, ...]:
    """The three levels (decks or board rows) with the one at ``index`` replaced."""
    first, second, third = levels
    if index == 0:
        return (level, second, third)
    if index == 1:
        return (first, level, third)
    return (first, second, level)


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
