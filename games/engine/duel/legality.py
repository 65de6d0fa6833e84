"""Which actions are legal: the options of the current phase, and what a purchase costs.

``legal_actions`` lists each distinct action once. A purchase is listed once per card with the
engine's default payment (``payment=None``); the other ways to pay, with gold in place of gem or
pearl tokens, are refinements of that action that ``payment_options`` lists and ``apply_action``
accepts (as in the base game, docs/decisions/0045-duel-rulings.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from operator import le

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
from games.engine.duel.board import EMPTY, LINE_MASKS, LINES, MAX_LINE, SIZE, SPACES, Board
from games.engine.duel.catalogue import CARDS, JOKER, LEVELS, ROYALS, TOKEN_COUNTS
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    DISCARD_TOKENS,
    MAIN,
    MANDATORY,
    RESERVE,
    RESERVE_LIMIT,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
    TOKEN_LIMIT,
    DuelState,
    PlayerState,
)
from games.engine.duel.tokens import COST_COLOURS, GEM_COLOURS, GOLD, PEARL, Cost, Gems, Tokens

CARD_COSTS: tuple[Cost, ...] = tuple(card.cost for card in CARDS)
_IS_JOKER: tuple[bool, ...] = tuple(card.colour == JOKER for card in CARDS)

# Every action value a phase can offer is made once, here, and shared: legal_actions is the inner
# loop of every bot and playout.
_TAKE_LINE: tuple[TakeTokens, ...] = tuple(TakeTokens(line) for line in LINES)
_USE_PRIVILEGE: tuple[UsePrivilege, ...] = tuple(UsePrivilege(space) for space in range(SPACES))
_TAKE_GOLD: tuple[TakeGold, ...] = tuple(TakeGold(space) for space in range(SPACES))
_TAKE_MATCHING: tuple[TakeMatchingToken, ...] = tuple(
    TakeMatchingToken(space) for space in range(SPACES)
)
_RESERVE_CARD: tuple[ReserveCard, ...] = tuple(ReserveCard(card.id) for card in CARDS)
_RESERVE_FROM_DECK: tuple[ReserveFromDeck, ...] = tuple(ReserveFromDeck(level) for level in LEVELS)
_BUY_CARD: tuple[BuyCard, ...] = tuple(BuyCard(card.id) for card in CARDS)
_JOKER_COLOUR: tuple[ChooseJokerColour, ...] = tuple(
    ChooseJokerColour(colour) for colour in GEM_COLOURS
)
_STEAL: tuple[StealToken, ...] = tuple(StealToken(colour) for colour in COST_COLOURS)
_CHOOSE_ROYAL: tuple[ChooseRoyal, ...] = tuple(ChooseRoyal(royal.id) for royal in ROYALS)
REPLENISH = Replenish()
PASS = Pass()


def legal_actions(state: DuelState) -> list[Action]:
    """Exactly the options of the current phase, in a stable order; empty once the game is over."""
    phase = state.phase
    if phase == MAIN:
        return _main_actions(state)
    if phase == MANDATORY:
        return mandatory_actions(state) or [PASS]
    player = state.players[state.current]
    if phase == RESERVE:
        return reserve_actions(state)
    if phase == DISCARD_TOKENS:
        return list(discard_actions(player.tokens))
    if phase == TAKE_MATCHING_TOKEN:
        colour = matching_colour(state)
        return [_TAKE_MATCHING[space] for space in spaces_of(state.board, colour)]
    if phase == STEAL_TOKEN:
        opponent = state.players[1 - state.current]
        return [_STEAL[colour] for colour in stealable_colours(opponent)]
    if phase == CHOOSE_JOKER_COLOUR:
        return [_JOKER_COLOUR[colour] for colour in joker_colours(player)]
    if phase == CHOOSE_ROYAL:
        return [_CHOOSE_ROYAL[royal] for royal in state.royals]
    return []


def _main_actions(state: DuelState) -> list[Action]:
    """Privileges to spend and replenishing (in that order), then a mandatory action.

    Rulebook, "Special case": with no mandatory action possible the board must be replenished
    first; with an empty bag as well, the player can only pass
    (docs/decisions/0045-duel-rulings.md).
    """
    lines, golds, privileges = board_options(state.board)
    mandatory = _mandatory_actions(state, lines, golds)
    has_bag = any(state.bag)
    if not mandatory:
        return [REPLENISH] if has_bag else [PASS]
    actions: list[Action] = list(privileges) if state.players[state.current].privileges else []
    if has_bag:
        actions.append(REPLENISH)
    actions.extend(mandatory)
    return actions


def mandatory_actions(state: DuelState) -> list[Action]:
    """The lines to take, the gold tokens to take (to reserve) and the cards to buy."""
    lines, golds, _ = board_options(state.board)
    return _mandatory_actions(state, lines, golds)


def _mandatory_actions(
    state: DuelState, lines: tuple[TakeTokens, ...], golds: tuple[TakeGold, ...]
) -> list[Action]:
    actions: list[Action] = list(lines)
    player = state.players[state.current]
    if golds and len(player.reserved) < RESERVE_LIMIT and has_card_to_reserve(state):
        actions.extend(golds)
    tokens = player.tokens
    bonuses = player.bonuses
    covered, maybe = covering_masks(tokens, bonuses)
    if maybe:
        buyable = maybe & _pyramid_mask(state.pyramid)
        for card in player.reserved:
            buyable |= maybe & 1 << card
        gold = tokens[GOLD]
        while buyable:
            # Card by card in the order of their ids, lowest bit first.
            bit = buyable & -buyable
            buyable ^= bit
            card = bit.bit_length() - 1
            if covered & bit or shortfall(tokens, bonuses, card) <= gold:
                actions.append(_BUY_CARD[card])
    return actions


@lru_cache(maxsize=1 << 12)
def _pyramid_mask(pyramid: tuple[tuple[int | None, ...], ...]) -> int:
    """The pyramid's cards as a mask of card ids; a pyramid changes only when a card leaves."""
    return sum(1 << card for row in pyramid for card in row if card is not None)


@lru_cache(maxsize=1 << 16)
def board_options(
    board: Board,
) -> tuple[tuple[TakeTokens, ...], tuple[TakeGold, ...], tuple[UsePrivilege, ...]]:
    """The lines to take, the gold tokens to take and the tokens a privilege may take.

    A pure function of the board, asked for at every turn of every playout and search: worth
    remembering (a board hashes several times faster than it can be read in Python).
    """
    takeable = 0
    golds: list[TakeGold] = []
    privileges: list[UsePrivilege] = []
    for space, token in enumerate(board):
        if token == GOLD:
            golds.append(_TAKE_GOLD[space])
        elif token != EMPTY:
            takeable |= 1 << space
            privileges.append(_USE_PRIVILEGE[space])
    return lines_within(takeable), tuple(golds), tuple(privileges)


@lru_cache(maxsize=1 << 16)
def lines_within(takeable: int) -> tuple[TakeTokens, ...]:
    """The lines whose spaces all hold a gem or pearl token (``takeable``, a mask of spaces).

    A pure function of the mask, asked for at every turn: worth remembering, and on a miss put
    together from each row's lines, themselves remembered by the three rows they can reach.
    """
    lines: tuple[TakeTokens, ...] = ()
    for top_row in range(SIZE):
        band = takeable >> (top_row * SIZE) & _BAND
        if band:
            lines += _band_lines(top_row, band)
    return lines


_BAND = (1 << (MAX_LINE * SIZE)) - 1
"""The bits of three rows: every line starting in a row lies within it and the two below."""
_LINES_BY_TOP_ROW: tuple[tuple[tuple[int, TakeTokens], ...], ...] = tuple(
    tuple(
        (mask >> (top_row * SIZE), _TAKE_LINE[index])
        for index, mask in enumerate(LINE_MASKS)
        if LINES[index][0] // SIZE == top_row
    )
    for top_row in range(SIZE)
)
"""Each row's lines (those whose first space is in it), as masks relative to the row."""


@lru_cache(maxsize=1 << 16)
def _band_lines(top_row: int, band: int) -> tuple[TakeTokens, ...]:
    """The lines starting in ``top_row`` whose spaces all hold a gem or pearl token."""
    return tuple(line for mask, line in _LINES_BY_TOP_ROW[top_row] if mask & band == mask)


def reserve_actions(state: DuelState) -> list[Action]:
    """The pyramid's cards, then the decks that still have a top card."""
    actions: list[Action] = [
        _RESERVE_CARD[card] for row in state.pyramid for card in row if card is not None
    ]
    actions.extend(_RESERVE_FROM_DECK[index] for index, deck in enumerate(state.decks) if deck)
    return actions


def has_card_to_reserve(state: DuelState) -> bool:
    return any(state.decks) or any(card is not None for row in state.pyramid for card in row)


def spaces_of(board: Board, colour: int) -> list[int]:
    return [space for space in range(SPACES) if board[space] == colour]


def matching_colour(state: DuelState) -> int:
    """The colour of the card being resolved, always the one bought last ("Gem" ability)."""
    return state.players[state.current].card_colours[-1]


def stealable_colours(opponent: PlayerState) -> list[int]:
    """The gem and pearl colours the opponent holds (gold cannot be taken)."""
    return [colour for colour in COST_COLOURS if opponent.tokens[colour]]


def joker_colours(player: PlayerState) -> list[int]:
    """The colours of the player's cards with a bonus: where a joker may be placed."""
    return [colour for colour in GEM_COLOURS if player.bonuses[colour]]


_POWER_LIMIT = sum(card.bonus for card in CARDS) + 2 * sum(TOKEN_COUNTS) + 1
"""Above any amount of one colour a player can hold (every bonus and every token of the game)
plus the gold that may stand in for it: the length of the tables below."""
COVERED_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << card for card, cost in enumerate(CARD_COSTS) if cost[colour] <= power)
        for power in range(_POWER_LIMIT)
    )
    for colour in COST_COLOURS
)
"""For each cost colour and amount held (bonuses and tokens), the cards whose cost in that colour
it covers, as a mask of card ids: affordability for every card at once, in six lookups."""
JOKER_CARDS = sum(1 << card for card, joker in enumerate(_IS_JOKER) if joker)


def purchase_masks(player: PlayerState) -> tuple[int, int]:
    """Two masks of card ids: those the player covers without gold, and those gold might cover.

    A card in the second and not the first is affordable when its :func:`_shortfall` is at most
    the player's gold. A joker cannot be bought without a card with a bonus to join (rulebook,
    "5-Gem").
    """
    return covering_masks(player.tokens, player.bonuses)


def covering_masks(tokens: Sequence[int], bonuses: Sequence[int]) -> tuple[int, int]:
    """:func:`purchase_masks` of a hand given as its tokens and bonuses (tuples or lists)."""
    white = bonuses[0] + tokens[0]
    blue = bonuses[1] + tokens[1]
    green = bonuses[2] + tokens[2]
    red = bonuses[3] + tokens[3]
    black = bonuses[4] + tokens[4]
    pearl = tokens[5]
    c_white, c_blue, c_green, c_red, c_black, c_pearl = COVERED_AT
    covered = (
        c_white[white] & c_blue[blue] & c_green[green] & c_red[red] & c_black[black]
        & c_pearl[pearl]
    )  # fmt: skip
    gold = tokens[GOLD]
    maybe = covered
    if gold:
        maybe = (
            c_white[white + gold] & c_blue[blue + gold] & c_green[green + gold]
            & c_red[red + gold] & c_black[black + gold] & c_pearl[pearl + gold]
        )  # fmt: skip
    if not (bonuses[0] or bonuses[1] or bonuses[2] or bonuses[3] or bonuses[4]):
        covered &= ~JOKER_CARDS
        maybe &= ~JOKER_CARDS
    return covered, maybe


def _shortfall(player: PlayerState, card: int) -> int:
    """The tokens the player lacks for ``card`` once bonuses are counted: what gold must cover."""
    return shortfall(player.tokens, player.bonuses, card)


def shortfall(tokens: Sequence[int], bonuses: Sequence[int], card: int) -> int:
    """:func:`_shortfall` of a hand given as its tokens and bonuses (tuples or lists)."""
    white, blue, green, red, black, pearl = CARD_COSTS[card]
    # Unrolled, with no call to max(): this runs for every card gold might make affordable.
    short = 0
    if white:
        white -= bonuses[0] + tokens[0]
        if white > 0:
            short += white
    if blue:
        blue -= bonuses[1] + tokens[1]
        if blue > 0:
            short += blue
    if green:
        green -= bonuses[2] + tokens[2]
        if green > 0:
            short += green
    if red:
        red -= bonuses[3] + tokens[3]
        if red > 0:
            short += red
    if black:
        black -= bonuses[4] + tokens[4]
        if black > 0:
            short += black
    if pearl > tokens[5]:
        short += pearl - tokens[5]
    return short


def can_afford(player: PlayerState, card: int) -> bool:
    covered, maybe = purchase_masks(player)
    if not maybe >> card & 1:
        return False
    return bool(covered >> card & 1) or _shortfall(player, card) <= player.tokens[GOLD]


def amount_due(bonuses: Gems, card: int) -> Cost:
    """The tokens of each colour and pearls the card still costs once bonuses are counted."""
    cost = CARD_COSTS[card]
    due = [max(0, cost[colour] - bonuses[colour]) for colour in GEM_COLOURS]
    due.append(cost[-1])
    return tuple(due)


def default_payment(player: PlayerState, card: int) -> Tokens:
    """Gem and pearl tokens first, gold for the rest (the default when none is given)."""
    return payment_for(player.tokens, player.bonuses, card)


def payment_for(held: Sequence[int], bonuses: Sequence[int], card: int) -> Tokens:
    """:func:`default_payment` of a hand given as its tokens and bonuses (tuples or lists).

    Unrolled over the colours: every purchase of every playout works it out.
    """
    cost = CARD_COSTS[card]
    payment = []
    gold = 0
    for colour in range(PEARL):
        due = cost[colour] - bonuses[colour]
        if due <= 0:
            payment.append(0)
        elif due > held[colour]:
            payment.append(held[colour])
            gold += due - held[colour]
        else:
            payment.append(due)
    due = cost[PEARL]
    if due > held[PEARL]:
        payment.append(held[PEARL])
        gold += due - held[PEARL]
    else:
        payment.append(due)
    payment.append(gold)
    return tuple(payment)


def payment_options(state: DuelState, card: int) -> list[Tokens]:
    """Every exact way the player to act can pay for ``card``, fewest gold first."""
    player = state.players[state.current]
    return exact_payments(player.tokens, player.bonuses, CARD_COSTS[card])


def exact_payments(tokens: Tokens, bonuses: Gems, cost: Cost) -> list[Tokens]:
    """Every payment of exactly ``cost`` less ``bonuses`` from ``tokens``, fewest gold first.

    Gold may stand in for any gem or pearl, even one the player holds. Empty when the tokens
    cannot cover the cost.
    """
    due = [max(0, cost[colour] - bonuses[colour]) for colour in GEM_COLOURS] + [cost[-1]]
    options: list[Tokens] = []

    def choose(colour: int, paid: tuple[int, ...], gold_used: int) -> None:
        if colour == len(COST_COLOURS):
            options.append((*paid, gold_used))
            return
        most = min(due[colour], tokens[colour])
        for coloured in range(most, -1, -1):
            gold_needed = gold_used + due[colour] - coloured
            if gold_needed <= tokens[GOLD]:
                choose(colour + 1, (*paid, coloured), gold_needed)

    choose(0, (), 0)
    return sorted(options, key=lambda payment: payment[GOLD])


def discard_options(tokens: Tokens) -> list[Tokens]:
    """Every way to put back exactly the tokens above the limit from ``tokens``.

    Each is a multiset of the excess's size drawn from the colours held, none more often than
    held: ``combinations_with_replacement`` lists each multiset once.
    """
    excess = sum(tokens) - TOKEN_LIMIT
    if excess <= 0:
        return []
    held = [colour for colour, count in enumerate(tokens) if count]
    options: list[Tokens] = []
    for chosen in combinations_with_replacement(held, excess):
        discarded = [0] * len(tokens)
        for colour in chosen:
            discarded[colour] += 1
        if all(map(le, discarded, tokens)):
            options.append(tuple(discarded))
    return options


@lru_cache(maxsize=1 << 14)
def discard_actions(tokens: Tokens) -> tuple[DiscardTokens, ...]:
    # A pure function of the hand, asked for again and again in playouts: worth remembering.
    return tuple(DiscardTokens(discarded) for discarded in discard_options(tokens))
