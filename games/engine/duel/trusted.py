"""The trusted path: applying an action the engine itself listed, without checking it again.

Bots' search, random playouts and the replay of recorded events only ever apply actions that
``legal_actions`` listed (or, for a purchase, a payment ``payment_options`` listed; for a
discard, any exact discard of the excess). For them, :func:`apply_legal` skips every rule check
that ``transitions.apply_action`` makes and builds the common steps (taking a line, a privilege,
a gold, reserving, a purchase without an ability, discarding, the end of a quiet turn) with one
positional constructor each. The rare steps after a purchase (a joker's colour, abilities,
royals) share ``purchase``'s resolution, past its checks. Given a legal action it returns exactly
the state ``apply_action`` returns; given anything else its result is undefined.
``tests/engine/duel/test_trusted_path.py`` plays thousands of games through both. Whatever comes
from outside the engine goes through the validating ``apply_action``.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add, sub
from typing import Any

from games.engine.duel.actions import (
    Action,
    BuyCard,
    ChooseJokerColour,
    ChooseRoyal,
    DiscardTokens,
    Pass,
    Replenish,
    ReserveCard,
    ReserveFromDeck,
    StealToken,
    TakeGold,
    TakeMatchingToken,
    TakeTokens,
    UsePrivilege,
)
from games.engine.duel.board import EMPTY, draw_order, lay_out
from games.engine.duel.catalogue import CARDS, JOKER, NONE
from games.engine.duel.legality import default_payment, joker_colours
from games.engine.duel.players import take_privilege, with_card, with_joker_colour
from games.engine.duel.purchase import (
    gain_royal,
    resolve_ability,
    resolve_royal,
    steal,
    take_from_board,
)
from games.engine.duel.scoring import has_won
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CROWN_THRESHOLDS,
    DISCARD_TOKENS,
    MAIN,
    MANDATORY,
    RESERVE,
    TOKEN_LIMIT,
    DuelState,
    PlayerState,
)
from games.engine.duel.tokens import GOLD, NO_TOKENS, PEARL, Tokens
from games.engine.duel.transitions import PEARLS_FOR_PRIVILEGE, SAME_COLOUR_FOR_PRIVILEGE
from games.engine.duel.turn_end import end_turn, finish_turn

_Decks = tuple[tuple[int, ...], ...]
_Pyramid = tuple[tuple[int | None, ...], ...]

_CARD_LEVEL_INDEX: tuple[int, ...] = tuple(card.level - 1 for card in CARDS)
_CARD_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
_QUIET_CARD: tuple[bool, ...] = tuple(card.ability == NONE for card in CARDS)
"""Cards without an ability: once bought (and placed, for a joker) the turn simply ends."""
_FIRST_ROYAL_AT, _SECOND_ROYAL_AT = CROWN_THRESHOLDS
_new_tuple = tuple.__new__
"""What a named tuple's generated ``__new__`` calls, called directly to skip a Python frame."""


def apply_legal(state: DuelState, action: Action) -> DuelState:
    """The state after ``action``, which must be legal in ``state``: nothing is checked."""
    return _STEPS[type(action)](state, action)


def _use_privilege(state: DuelState, action: UsePrivilege) -> DuelState:
    seat = state.current
    space = action.space
    board = state.board
    player = state.players[seat]
    tokens = list(player.tokens)
    tokens[board[space]] += 1
    player = _new_tuple(PlayerState, (tuple(tokens), player.privileges - 1, *player[2:]))
    cells = list(board)
    cells[space] = EMPTY
    return _new_tuple(DuelState, (_seated(state.players, seat, player), tuple(cells), *state[2:]))


def _replenish(state: DuelState, action: Replenish) -> DuelState:
    order = state.bag_draws[state.replenishments % len(state.bag_draws)]
    return _new_tuple(
        DuelState,
        (
            take_privilege(state.players, 1 - state.current),
            lay_out(state.board, draw_order(state.bag, order)),
            NO_TOKENS,
            state.bag_draws,
            state.replenishments + 1,
            *state[5:9],
            MANDATORY,
            *state[10:],
        ),
    )


def _take_tokens(state: DuelState, action: TakeTokens) -> DuelState:
    seat = state.current
    board = state.board
    player = state.players[seat]
    tokens = list(player.tokens)
    cells = list(board)
    colours = []
    for space in action.spaces:
        colour = board[space]
        colours.append(colour)
        tokens[colour] += 1
        cells[space] = EMPTY
    players = _seated(state.players, seat, _new_tuple(PlayerState, (tuple(tokens), *player[1:])))
    three_alike = len(colours) == SAME_COLOUR_FOR_PRIVILEGE and len(set(colours)) == 1
    if three_alike or colours.count(PEARL) >= PEARLS_FOR_PRIVILEGE:
        players = take_privilege(players, 1 - seat)
    return _end_quiet_turn(state, players, tuple(cells), state.bag)


def _take_gold(state: DuelState, action: TakeGold) -> DuelState:
    seat = state.current
    player = state.players[seat]
    held = player.tokens
    tokens = (*held[:GOLD], held[GOLD] + 1)
    cells = list(state.board)
    cells[action.space] = EMPTY
    players = _seated(state.players, seat, _new_tuple(PlayerState, (tokens, *player[1:])))
    return _new_tuple(DuelState, (players, tuple(cells), *state[2:9], RESERVE, *state[10:]))


def _reserve_card(state: DuelState, action: ReserveCard) -> DuelState:
    card = action.card
    index = _CARD_LEVEL_INDEX[card]
    pyramid = list(state.pyramid)
    pyramid[index] = tuple(None if slot == card else slot for slot in pyramid[index])
    return _reserve(state, card, False, state.decks, tuple(pyramid), index)


def _reserve_from_deck(state: DuelState, action: ReserveFromDeck) -> DuelState:
    index = action.level - 1
    decks = list(state.decks)
    deck = decks[index]
    decks[index] = deck[1:]
    return _reserve(state, deck[0], True, tuple(decks), state.pyramid, -1)


def _reserve(
    state: DuelState, card: int, blind: bool, decks: _Decks, pyramid: _Pyramid, emptied_row: int
) -> DuelState:
    seat = state.current
    player = state.players[seat]
    player = _new_tuple(
        PlayerState,
        (
            *player[:4],
            (*player.reserved, card),
            (*player.blind, card) if blind else player.blind,
            *player[6:],
        ),
    )
    players = _seated(state.players, seat, player)
    return _end_quiet_turn(state, players, state.board, state.bag, decks, pyramid, emptied_row)


def _buy_card(state: DuelState, action: BuyCard) -> DuelState:
    seat = state.current
    card = action.card
    player = state.players[seat]
    held = player.tokens
    payment = action.payment
    if payment is None:
        payment = default_payment(player, card)
    reserved = player.reserved
    blind = player.blind
    pyramid = state.pyramid
    emptied_row = -1
    if card in reserved:
        reserved = tuple(kept for kept in reserved if kept != card)
        if card in blind:
            blind = tuple(kept for kept in blind if kept != card)
    else:
        emptied_row = _CARD_LEVEL_INDEX[card]
        rows = list(pyramid)
        rows[emptied_row] = tuple(None if slot == card else slot for slot in rows[emptied_row])
        pyramid = tuple(rows)
    colour = _CARD_COLOUR[card]
    if colour == JOKER:
        options = joker_colours(player)
        if len(options) == 1:
            colour = options[0]
    tokens = tuple(map(sub, held, payment))
    bag = tuple(map(add, state.bag, payment))
    crowns_before = player.crowns
    player = with_card(player, card, colour, tokens, reserved, blind)
    crowns = player.crowns
    royal_due = (crowns_before < _FIRST_ROYAL_AT <= crowns) or (
        crowns_before < _SECOND_ROYAL_AT <= crowns
    )
    players = _seated(state.players, seat, player)
    if _QUIET_CARD[card] and not royal_due and colour != JOKER:
        return _end_quiet_turn(state, players, state.board, bag, None, pyramid, emptied_row)
    bought = _new_tuple(
        DuelState,
        (
            players,
            state.board,
            bag,
            *state[3:6],
            pyramid,
            *state[7:9],
            CHOOSE_JOKER_COLOUR if colour == JOKER else state.phase,
            state.turn,
            state.extra_turn,
            card,
            royal_due,
            state.passes,
        ),
    )
    if colour == JOKER:
        return bought
    return resolve_ability(bought)


def _choose_joker_colour(state: DuelState, action: ChooseJokerColour) -> DuelState:
    seat = state.current
    player = with_joker_colour(state.players[seat], action.colour)
    return resolve_ability(state._replace(players=_seated(state.players, seat, player)))


def _take_matching_token(state: DuelState, action: TakeMatchingToken) -> DuelState:
    return resolve_royal(take_from_board(state, action.space))


def _steal_token(state: DuelState, action: StealToken) -> DuelState:
    return resolve_royal(steal(state, action.colour))


def _choose_royal(state: DuelState, action: ChooseRoyal) -> DuelState:
    return gain_royal(state, action.royal)


def _discard_tokens(state: DuelState, action: DiscardTokens) -> DuelState:
    seat = state.current
    discarded = action.tokens
    player = state.players[seat]
    tokens = tuple(map(sub, player.tokens, discarded))
    bag = tuple(map(add, state.bag, discarded))
    players = _seated(state.players, seat, _new_tuple(PlayerState, (tokens, *player[1:])))
    return finish_turn(_new_tuple(DuelState, (players, state.board, bag, *state[3:])))


def _pass(state: DuelState, action: Pass) -> DuelState:
    return end_turn(state, passed=True)


def _end_quiet_turn(
    state: DuelState,
    players: tuple[PlayerState, ...],
    board: tuple[int, ...],
    bag: Tokens,
    decks: _Decks | None = None,
    pyramid: _Pyramid | None = None,
    emptied_row: int = -1,
) -> DuelState:
    """``turn_end.end_turn`` for a turn that neither passed nor left a decision pending.

    ``emptied_row`` is the pyramid row a card left this turn, the only slot to refill: every
    turn's end refilled the pyramid as far as the decks allowed.
    """
    if decks is None:
        decks = state.decks
    if pyramid is None:
        pyramid = state.pyramid
    seat = state.current
    player = players[seat]
    if sum(player.tokens) > TOKEN_LIMIT:
        return _new_tuple(
            DuelState,
            (players, board, bag, *state[3:5], decks, pyramid, *state[7:9], DISCARD_TOKENS,
             state.turn, state.extra_turn, None, False, 0),
        )  # fmt: skip
    if has_won(player):
        return finish_turn(
            _new_tuple(
                DuelState,
                (players, board, bag, *state[3:5], decks, pyramid, *state[7:14], 0),
            )
        )
    if emptied_row >= 0 and decks[emptied_row]:
        decks, pyramid = _refilled(decks, pyramid, emptied_row)
    return _new_tuple(
        DuelState,
        (players, board, bag, state.bag_draws, state.replenishments, decks, pyramid,
         state.royals, seat if state.extra_turn else 1 - seat, MAIN, state.turn + 1, False,
         None, False, 0),
    )  # fmt: skip


def _refilled(decks: _Decks, pyramid: _Pyramid, index: int) -> tuple[_Decks, _Pyramid]:
    """``turn_end.refill_pyramid`` when only row ``index`` lost a card and its deck has one."""
    deck = decks[index]
    row = pyramid[index]
    slot = row.index(None)
    rows = list(pyramid)
    rows[index] = (*row[:slot], deck[0], *row[slot + 1 :])
    new_decks = list(decks)
    new_decks[index] = deck[1:]
    return tuple(new_decks), tuple(rows)


def _seated(
    players: tuple[PlayerState, ...], seat: int, player: PlayerState
) -> tuple[PlayerState, ...]:
    return (player, players[1]) if seat == 0 else (players[0], player)


_STEPS: dict[type, Callable[[DuelState, Any], DuelState]] = {
    UsePrivilege: _use_privilege,
    Replenish: _replenish,
    TakeTokens: _take_tokens,
    TakeGold: _take_gold,
    ReserveCard: _reserve_card,
    ReserveFromDeck: _reserve_from_deck,
    BuyCard: _buy_card,
    ChooseJokerColour: _choose_joker_colour,
    TakeMatchingToken: _take_matching_token,
    StealToken: _steal_token,
    ChooseRoyal: _choose_royal,
    DiscardTokens: _discard_tokens,
    Pass: _pass,
}
