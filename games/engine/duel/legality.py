"""Which actions are legal: the options of the current phase, and what a purchase costs.

``legal_actions`` lists each distinct action once. A purchase is listed once per card with the
engine's default payment (``payment=None``); the other ways to pay, with gold in place of gem or
pearl tokens, are refinements of that action that ``payment_options`` lists and ``apply_action``
accepts (as in the base game, docs/decisions.md).
"""

from __future__ import annotations

from functools import lru_cache

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
from games.engine.duel.board import EMPTY, LINE_MASKS, LINES, SPACES, Board
from games.engine.duel.catalogue import CARDS, JOKER, LEVELS, ROYALS
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
from games.engine.duel.tokens import COST_COLOURS, GEM_COLOURS, GOLD, Cost, Gems, Tokens

_CARD_COSTS: tuple[Cost, ...] = tuple(card.cost for card in CARDS)
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
        return list(_discard_actions(player.tokens))
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
    first; with an empty bag as well, the player can only pass (docs/decisions.md).
    """
    mandatory = mandatory_actions(state)
    has_bag = any(state.bag)
    if not mandatory:
        return [REPLENISH] if has_bag else [PASS]
    actions: list[Action] = []
    if state.players[state.current].privileges:
        board = state.board
        for space in range(SPACES):
            token = board[space]
            if token != EMPTY and token != GOLD:
                actions.append(_USE_PRIVILEGE[space])
    if has_bag:
        actions.append(REPLENISH)
    actions.extend(mandatory)
    return actions


def mandatory_actions(state: DuelState) -> list[Action]:
    """The lines to take, the gold tokens to take (to reserve) and the cards to buy."""
    board = state.board
    takeable = 0
    gold_spaces: list[int] = []
    for space in range(SPACES):
        token = board[space]
        if token == GOLD:
            gold_spaces.append(space)
        elif token != EMPTY:
            takeable |= 1 << space
    actions: list[Action] = list(_lines_within(takeable)) if takeable else []
    player = state.players[state.current]
    if gold_spaces and len(player.reserved) < RESERVE_LIMIT and has_card_to_reserve(state):
        actions.extend(_TAKE_GOLD[space] for space in gold_spaces)
    power = _spending_power(player)
    has_bonus = any(player.bonuses)
    can_buy = _can_buy
    for row in state.pyramid:
        for card in row:
            if card is not None and can_buy(power, card, has_bonus):
                actions.append(_BUY_CARD[card])
    for card in player.reserved:
        if can_buy(power, card, has_bonus):
            actions.append(_BUY_CARD[card])
    return actions


@lru_cache(maxsize=65536)
def _lines_within(takeable: int) -> tuple[TakeTokens, ...]:
    """The lines whose spaces all hold a gem or pearl token (``takeable``, a mask of spaces).

    A pure function of the mask, asked for at every turn of every playout: worth remembering.
    """
    missing = ~takeable
    return tuple(_TAKE_LINE[index] for index, mask in enumerate(LINE_MASKS) if not mask & missing)


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


def _spending_power(player: PlayerState) -> tuple[int, ...]:
    """Bonuses plus tokens of each gem colour, pearls, then gold: what a purchase can draw on."""
    tokens = player.tokens
    bonuses = player.bonuses
    return (
        bonuses[0] + tokens[0],
        bonuses[1] + tokens[1],
        bonuses[2] + tokens[2],
        bonuses[3] + tokens[3],
        bonuses[4] + tokens[4],
        tokens[5],
        tokens[GOLD],
    )


def _can_buy(power: tuple[int, ...], card: int, has_bonus: bool) -> bool:
    """Whether the tokens and bonuses cover the card, gold standing in for the shortfall.

    A joker cannot be bought without a card with a bonus to join (rulebook, "5-Gem").
    """
    if _IS_JOKER[card] and not has_bonus:
        return False
    # Unrolled over the six cost colours: this is the innermost test of every playout.
    white, blue, green, red, black, pearl = _CARD_COSTS[card]
    shortfall = 0
    if white > power[0]:
        shortfall += white - power[0]
    if blue > power[1]:
        shortfall += blue - power[1]
    if green > power[2]:
        shortfall += green - power[2]
    if red > power[3]:
        shortfall += red - power[3]
    if black > power[4]:
        shortfall += black - power[4]
    if pearl > power[5]:
        shortfall += pearl - power[5]
    return shortfall <= power[6]


def can_afford(player: PlayerState, card: int) -> bool:
    return _can_buy(_spending_power(player), card, any(player.bonuses))


def amount_due(bonuses: Gems, card: int) -> Cost:
    """The tokens of each colour and pearls the card still costs once bonuses are counted."""
    cost = _CARD_COSTS[card]
    due = [max(0, cost[colour] - bonuses[colour]) for colour in GEM_COLOURS]
    due.append(cost[-1])
    return tuple(due)


def default_payment(player: PlayerState, card: int) -> Tokens:
    """Gem and pearl tokens first, gold for the rest (the default when none is given)."""
    payment = []
    gold = 0
    for due, held in zip(amount_due(player.bonuses, card), player.tokens, strict=False):
        if due > held:
            payment.append(held)
            gold += due - held
        else:
            payment.append(due)
    payment.append(gold)
    return tuple(payment)


def payment_options(state: DuelState, card: int) -> list[Tokens]:
    """Every exact way the player to act can pay for ``card``, fewest gold first."""
    player = state.players[state.current]
    return exact_payments(player.tokens, player.bonuses, _CARD_COSTS[card])


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
    """Every way to put back exactly the tokens above the limit from ``tokens``."""
    excess = sum(tokens) - TOKEN_LIMIT
    options: list[Tokens] = []
    last = len(tokens) - 1

    def choose(colour: int, chosen: tuple[int, ...], left: int) -> None:
        if colour == last:
            if left <= tokens[colour]:
                options.append((*chosen, left))
            return
        for count in range(min(left, tokens[colour]), -1, -1):
            choose(colour + 1, (*chosen, count), left - count)

    if excess > 0:
        choose(0, (), excess)
    return options


@lru_cache(maxsize=4096)
def _discard_actions(tokens: Tokens) -> tuple[DiscardTokens, ...]:
    # A pure function of the hand, asked for again and again in playouts: worth remembering.
    return tuple(DiscardTokens(discarded) for discarded in discard_options(tokens))
