"""Which actions are legal: the options of the current phase, and what a purchase costs.

``legal_actions`` lists each distinct action once. A purchase is listed once per card with the
engine's default payment (``payment=None``); the other ways to pay for the same card, using gold
in place of coloured tokens, are refinements of that one action that ``payment_options`` lists
and ``apply_action`` accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations, compress, product
from operator import ge, itemgetter
from typing import cast

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
from games.engine.splendor.affordability import (
    GOLD_BIAS,
    SHORTFALL_BLACK,
    SHORTFALL_BLUE,
    SHORTFALL_GREEN,
    SHORTFALL_RED,
    SHORTFALL_WHITE,
    SLOT_BYTES,
    TOP_BIT,
    affordable_by_sums,
)
from games.engine.splendor.catalogue import CARDS, LEVELS, NOBLES
from games.engine.splendor.gems import GEM_COLOURS, GOLD, TOKEN_COLOURS, Gems, Tokens
from games.engine.splendor.state import (
    BOARD_WIDTH,
    CHOOSE_NOBLE,
    MAIN,
    RESERVE_LIMIT,
    RETURN_TOKENS,
    TOKEN_LIMIT,
    GameState,
    PlayerState,
)

TAKE_TWO_MINIMUM = 4
"""Two tokens of one colour may be taken only when at least four are in the supply."""
TAKE_DIFFERENT = 3

_CARD_COSTS: tuple[Gems, ...] = tuple(card.cost for card in CARDS)

# Every action value the main phase can offer is made once, here, and shared: legal_actions is
# the inner loop of every bot and playout.
_TAKE_DIFFERENT_BY_MASK: tuple[tuple[TakeGems, ...], ...] = tuple(
    tuple(
        TakeGems(combo)
        for combo in combinations(
            [colour for colour in GEM_COLOURS if mask >> colour & 1],
            min(TAKE_DIFFERENT, mask.bit_count()),
        )
    )
    if mask
    else ()
    for mask in range(1 << len(GEM_COLOURS))
)
_TAKE_TWO: tuple[TakeGems, ...] = tuple(TakeGems((colour, colour)) for colour in GEM_COLOURS)


def _supply_key(supply: Tokens) -> int:
    """Which gem colours are in the supply (bits 0-4) and which hold enough to take two (5-9)."""
    key = 0
    for colour in GEM_COLOURS:
        if supply[colour]:
            key |= 1 << colour
        if supply[colour] >= TAKE_TWO_MINIMUM:
            key |= 1 << (len(GEM_COLOURS) + colour)
    return key


_SUPPLY_KEY_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _supply_key(tuple(count if index == colour else 0 for index in TOKEN_COLOURS))
        for count in range(16)
    )
    for colour in GEM_COLOURS
)
"""Per colour and count (up to 15), that colour's bits of :func:`_supply_key`."""
_TAKES_BY_SUPPLY_KEY: tuple[tuple[TakeGems, ...], ...] = tuple(
    _TAKE_DIFFERENT_BY_MASK[key & 0b11111]
    + tuple(_TAKE_TWO[colour] for colour in GEM_COLOURS if key >> (5 + colour) & 1)
    for key in range(1 << (2 * len(GEM_COLOURS)))
)
"""Every take the supply allows, by :func:`_supply_key`: different colours, then two of one."""
_RESERVE_CARD: tuple[ReserveCard, ...] = tuple(ReserveCard(card.id) for card in CARDS)
_RESERVE_FROM_DECK: tuple[ReserveFromDeck, ...] = tuple(ReserveFromDeck(level) for level in LEVELS)
"""By level index: ``_RESERVE_FROM_DECK[0]`` reserves from the level 1 deck."""
_BUY_CARD: tuple[BuyCard, ...] = tuple(BuyCard(card.id) for card in CARDS)
_CHOOSE_NOBLE: tuple[ChooseNoble, ...] = tuple(ChooseNoble(noble.id) for noble in NOBLES)
PASS = Pass()
_NOBLE_REQUIREMENTS: tuple[Gems, ...] = tuple(noble.requires for noble in NOBLES)
_FEWEST_CARDS_FOR_A_NOBLE = min(sum(requires) for requires in _NOBLE_REQUIREMENTS)


def legal_actions(state: GameState) -> list[Action]:
    """Exactly the options of the current phase, in a stable order; empty once the game is over.

    The inner loop of every playout and search, so the main phase's actions are worked out
    here, from tables built once: the takes by supply, the reserve and buy actions of the
    board's cards (remembered while the board stays the same object), and the affordability
    tables of ``affordability`` (inlined: a call costs as much as the arithmetic). Purchases
    are listed in the board's order, then the reserved cards' order.
    """
    players, supply, decks, board, _, seat, phase, _, _, pending = state
    if phase != MAIN:
        if phase == RETURN_TOKENS:
            return list(_return_actions(players[seat].tokens))
        if phase == CHOOSE_NOBLE:
            return [_CHOOSE_NOBLE[noble] for noble in pending]
        return []
    takes = _takes_by_supply.get(supply)
    if takes is None:
        takes = _remember_takes(supply)
    tokens, _, reserved, _, _, bonuses, _ = players[seat]
    memo = _board_memo
    if memo[0] is not board or memo[1] is not decks:
        memo = _remember_board(board, decks)
    _, _, reserves, tops, buys, bytes_of_face_up = memo
    try:
        affordable = (
            GOLD_BIAS[tokens[5]]
            - SHORTFALL_WHITE[bonuses[0] + tokens[0]] - SHORTFALL_BLUE[bonuses[1] + tokens[1]]
            - SHORTFALL_GREEN[bonuses[2] + tokens[2]] - SHORTFALL_RED[bonuses[3] + tokens[3]]
            - SHORTFALL_BLACK[bonuses[4] + tokens[4]]
        )  # fmt: skip
    except IndexError:  # a hand beyond the tables (a hand-built position)
        affordable = affordable_by_sums(tokens, bonuses)
    if not reserved:
        actions: list[Action] = [*takes, *reserves]
        on_board = affordable & tops
        if on_board:
            if on_board & (on_board - 1):
                # Several: each card's byte says whether it is affordable; pick them in order.
                actions += compress(buys, bytes_of_face_up(on_board.to_bytes(SLOT_BYTES, "little")))
            else:
                actions.append(_BUY_CARD[(on_board.bit_length() >> 3) - 1])
        return actions or [PASS]
    actions = [*takes, *reserves] if len(reserved) < RESERVE_LIMIT else list(takes)
    on_board = affordable & tops
    if on_board:
        if on_board & (on_board - 1):
            actions += compress(buys, bytes_of_face_up(on_board.to_bytes(SLOT_BYTES, "little")))
        else:
            actions.append(_BUY_CARD[(on_board.bit_length() >> 3) - 1])
    for card in reserved:
        if affordable & TOP_BIT[card]:
            actions.append(_BUY_CARD[card])
    return actions or [PASS]


def main_actions(state: GameState) -> list[Action]:
    """The take, reserve and buy actions open to the player to act (empty: they must pass)."""
    if state.phase != MAIN:
        state = state._replace(phase=MAIN)
    actions = legal_actions(state)
    return [] if actions[0] is PASS else actions


_takes_by_supply: dict[Tokens, tuple[TakeGems, ...]] = {}
"""The takes each supply met so far allows (a supply is six small counts: few are ever met)."""
_TAKES_REMEMBERED = 20_000


def _remember_takes(supply: Tokens) -> tuple[TakeGems, ...]:
    try:
        key = (
            _SUPPLY_KEY_BITS[0][supply[0]] | _SUPPLY_KEY_BITS[1][supply[1]]
            | _SUPPLY_KEY_BITS[2][supply[2]] | _SUPPLY_KEY_BITS[3][supply[3]]
            | _SUPPLY_KEY_BITS[4][supply[4]]
        )  # fmt: skip
    except IndexError:
        key = _supply_key(supply)
    takes = _TAKES_BY_SUPPLY_KEY[key]
    if len(_takes_by_supply) < _TAKES_REMEMBERED:
        _takes_by_supply[supply] = takes
    return takes


_Board = tuple[tuple[int | None, ...], ...]
_Decks = tuple[tuple[int, ...], ...]
_BytesPicker = Callable[[bytes], tuple[int, ...]]
_BoardMemo = tuple[_Board, _Decks, tuple[Action, ...], int, tuple[BuyCard, ...], _BytesPicker]
_board_memo: _BoardMemo = ((), (), (), 0, (), itemgetter(0, 0))
"""The last board and decks seen, then what ``legal_actions`` needs of them: every reservation
they allow, the face-up cards' top bits (``affordability.TOP_BIT``), their purchases in the
board's order, and the picker of their bytes from a packed answer, in the same order.

Consecutive states share their board and decks objects until a card leaves them, so playouts
mostly find them here. Replaced whole, so a reader in another thread sees one consistent entry;
holding the objects keeps their ids from being reused."""


def _remember_board(board: _Board, decks: _Decks) -> _BoardMemo:
    global _board_memo, _row_memos
    if len(board) == 3:
        # Usually one row is new (a card left it): only that row is worked out. The memos are
        # read once into locals and replaced whole, so another thread's rows never mix with
        # this board's.
        first_row, second_row, third_row = _row_memos
        if first_row[0] is not board[0]:
            first_row = _row_memo(board[0])
        if second_row[0] is not board[1]:
            second_row = _row_memo(board[1])
        if third_row[0] is not board[2]:
            third_row = _row_memo(board[2])
        _row_memos = (first_row, second_row, third_row)
        cards = first_row[1] + second_row[1] + third_row[1]
        tops = first_row[2] | second_row[2] | third_row[2]
    else:  # never in a game
        memos = [_row_memo(row) for row in board]
        cards = tuple([card for memo in memos for card in memo[1]])
        tops = sum([memo[2] for memo in memos])
    if len(cards) > 1:
        pick = itemgetter(*cards)
        reserves: tuple[Action, ...] = pick(_RESERVE_CARD)
        buys: tuple[BuyCard, ...] = pick(_BUY_CARD)
    else:  # one card or none: ``itemgetter`` would not answer a tuple
        pick = itemgetter(*cards, 0, 0)
        reserves = tuple(map(_RESERVE_CARD.__getitem__, cards))
        buys = tuple(map(_BUY_CARD.__getitem__, cards))
    if len(decks) == 3 and decks[0] and decks[1] and decks[2]:
        reserves += _RESERVE_FROM_DECK
    else:
        reserves += tuple(_RESERVE_FROM_DECK[level] for level, deck in enumerate(decks) if deck)
    _board_memo = (board, decks, reserves, tops, buys, pick)
    return _board_memo


_RowMemo = tuple[tuple[int | None, ...], tuple[int, ...], int]
_row_memos: tuple[_RowMemo, _RowMemo, _RowMemo] = (((), (), 0),) * 3
"""Per level, the last row seen, its cards and their top bits: a purchase or reservation
replaces one row and the other two stay the same objects, so only the new row is worked out."""


def _row_memo(row: tuple[int | None, ...]) -> _RowMemo:
    if None not in row:  # a full row is its cards
        cards = cast("tuple[int, ...]", row)
        if len(cards) == BOARD_WIDTH:
            first, second, third, fourth = cards
            return (row, cards, TOP_BIT[first] | TOP_BIT[second] | TOP_BIT[third] | TOP_BIT[fourth])
    else:
        cards = tuple([card for card in row if card is not None])
    return (row, cards, sum(map(TOP_BIT.__getitem__, cards)))


def amount_due(player: PlayerState, card: int) -> Gems:
    """The tokens of each colour the card still costs once the player's bonuses are counted."""
    return tuple(
        cost - bonus if cost > bonus else 0
        for cost, bonus in zip(_CARD_COSTS[card], player.bonuses, strict=True)
    )


def default_payment(player: PlayerState, card: int) -> Tokens:
    """Coloured tokens first, gold for the rest (the design's default when none is given)."""
    tokens = player.tokens
    payment = []
    gold = 0
    for due, held in zip(amount_due(player, card), tokens[:GOLD], strict=True):
        if due > held:
            payment.append(held)
            gold += due - held
        else:
            payment.append(due)
    payment.append(gold)
    return tuple(payment)


def payment_options(state: GameState, card: int) -> list[Tokens]:
    """Every exact way the player to act can pay for ``card``, fewest gold first."""
    player = state.players[state.current]
    return exact_payments(player.tokens, player.bonuses, _CARD_COSTS[card])


def exact_payments(tokens: Tokens, bonuses: Gems, cost: Gems) -> list[Tokens]:
    """Every payment of exactly ``cost`` less ``bonuses`` from ``tokens``, fewest gold first.

    Gold may stand in for any coloured token, even one the player holds (design decision).
    Empty when the tokens cannot cover the cost.
    """
    due = [max(0, need - bonus) for need, bonus in zip(cost, bonuses, strict=True)]
    options: list[Tokens] = []

    def choose(colour: int, paid: tuple[int, ...], gold_used: int) -> None:
        if colour == len(GEM_COLOURS):
            options.append((*paid, gold_used))
            return
        most = min(due[colour], tokens[colour])
        for coloured in range(most, -1, -1):
            gold_needed = gold_used + due[colour] - coloured
            if gold_needed <= tokens[GOLD]:
                choose(colour + 1, (*paid, coloured), gold_needed)

    choose(0, (), 0)
    return sorted(options, key=lambda payment: payment[GOLD])


def return_options(tokens: Tokens) -> list[Tokens]:
    """Every way to give back exactly the tokens above the limit from ``tokens``."""
    excess = sum(tokens) - TOKEN_LIMIT
    options: list[Tokens] = []

    def choose(colour: int, chosen: tuple[int, ...], left: int) -> None:
        if colour == len(TOKEN_COLOURS) - 1:
            if left <= tokens[colour]:
                options.append((*chosen, left))
            return
        for count in range(min(left, tokens[colour]), -1, -1):
            choose(colour + 1, (*chosen, count), left - count)

    if excess > 0:
        choose(0, (), excess)
    return options


_TABLED_EXCESS = 3
"""Taking three tokens on ten is the most a game can go over; larger excesses are computed."""
_RETURNS_BY_EXCESS: tuple[tuple[ReturnTokens, ...], ...] = tuple(
    tuple(
        ReturnTokens(returned)
        for returned in sorted(product(range(excess + 1), repeat=len(TOKEN_COLOURS)), reverse=True)
        if sum(returned) == excess
    )
    for excess in range(_TABLED_EXCESS + 1)
)
"""Per excess, every return of that many tokens from an unlimited hand, in the order of
:func:`return_options` (most of the first colour first)."""
_RETURN_FITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(1 << index for index, action in enumerate(returns) if action.tokens[colour] <= held)
            for held in range(32)
        )
        for colour in TOKEN_COLOURS
    )
    for returns in _RETURNS_BY_EXCESS
)
"""Per excess, colour and count held, the returns (bit per index) that count fits."""


@lru_cache(maxsize=4096)
def _return_actions(tokens: Tokens) -> tuple[ReturnTokens, ...]:
    # A pure function of the hand, asked for again and again in playouts: worth remembering.
    excess = sum(tokens) - TOKEN_LIMIT
    if 0 < excess <= _TABLED_EXCESS and max(tokens) < 32:
        fits = _RETURN_FITS[excess]
        mask = (
            fits[0][tokens[0]] & fits[1][tokens[1]] & fits[2][tokens[2]]
            & fits[3][tokens[3]] & fits[4][tokens[4]] & fits[5][tokens[5]]
        )  # fmt: skip
        returns = _RETURNS_BY_EXCESS[excess]
        return tuple(action for index, action in enumerate(returns) if mask >> index & 1)
    return tuple(ReturnTokens(returned) for returned in return_options(tokens))


return_actions = _return_actions
"""The returns a hand over ten may make, in ``legal_actions``' order (remembered per hand)."""


def qualifying_nobles(state: GameState, player: PlayerState) -> tuple[int, ...]:
    """The nobles on the table whose requirements the player's bonuses meet."""
    if len(player.cards) < _FEWEST_CARDS_FOR_A_NOBLE:
        return ()
    bonuses = player.bonuses
    return tuple(
        noble for noble in state.nobles if all(map(ge, bonuses, _NOBLE_REQUIREMENTS[noble]))
    )
