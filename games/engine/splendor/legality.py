"""Which actions are legal: the options of the current phase, and what a purchase costs.

``legal_actions`` lists each distinct action once. A purchase is listed once per card with the
engine's default payment (``payment=None``); the other ways to pay for the same card, using gold
in place of coloured tokens, are refinements of that one action that ``payment_options`` lists
and ``apply_action`` accepts.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from operator import ge

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
from games.engine.splendor.catalogue import CARDS, LEVELS, NOBLES
from games.engine.splendor.gems import GEM_COLOURS, GOLD, TOKEN_COLOURS, Gems, Tokens
from games.engine.splendor.state import (
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
_RESERVE_CARD: tuple[ReserveCard, ...] = tuple(ReserveCard(card.id) for card in CARDS)
_RESERVE_FROM_DECK: tuple[ReserveFromDeck, ...] = tuple(ReserveFromDeck(level) for level in LEVELS)
_BUY_CARD: tuple[BuyCard, ...] = tuple(BuyCard(card.id) for card in CARDS)
_CHOOSE_NOBLE: tuple[ChooseNoble, ...] = tuple(ChooseNoble(noble.id) for noble in NOBLES)
PASS = Pass()
_NOBLE_REQUIREMENTS: tuple[Gems, ...] = tuple(noble.requires for noble in NOBLES)
_FEWEST_CARDS_FOR_A_NOBLE = min(sum(requires) for requires in _NOBLE_REQUIREMENTS)


def legal_actions(state: GameState) -> list[Action]:
    """Exactly the options of the current phase, in a stable order; empty once the game is over."""
    if state.phase == MAIN:
        return main_actions(state) or [PASS]
    if state.phase == RETURN_TOKENS:
        return list(_return_actions(state.players[state.current].tokens))
    if state.phase == CHOOSE_NOBLE:
        return [_CHOOSE_NOBLE[noble] for noble in state.pending_nobles]
    return []


def main_actions(state: GameState) -> list[Action]:
    """The take, reserve and buy actions open to the player to act (empty: they must pass)."""
    supply = state.supply
    mask = 0
    for colour in GEM_COLOURS:
        if supply[colour]:
            mask |= 1 << colour
    actions: list[Action] = list(_TAKE_DIFFERENT_BY_MASK[mask])
    for colour in GEM_COLOURS:
        if supply[colour] >= TAKE_TWO_MINIMUM:
            actions.append(_TAKE_TWO[colour])
    player = state.players[state.current]
    board = state.board
    if len(player.reserved) < RESERVE_LIMIT:
        for row in board:
            for card in row:
                if card is not None:
                    actions.append(_RESERVE_CARD[card])
        for level_index, deck in enumerate(state.decks):
            if deck:
                actions.append(_RESERVE_FROM_DECK[level_index])
    spending_power = _spending_power(player)
    for row in board:
        for card in row:
            if card is not None and _covers(spending_power, card):
                actions.append(_BUY_CARD[card])
    for card in player.reserved:
        if _covers(spending_power, card):
            actions.append(_BUY_CARD[card])
    return actions


def _spending_power(player: PlayerState) -> tuple[int, ...]:
    """Bonuses plus tokens of each gem colour, then gold: what any purchase can draw on."""
    tokens = player.tokens
    bonuses = player.bonuses
    return (
        bonuses[0] + tokens[0],
        bonuses[1] + tokens[1],
        bonuses[2] + tokens[2],
        bonuses[3] + tokens[3],
        bonuses[4] + tokens[4],
        tokens[GOLD],
    )


def _covers(power: tuple[int, ...], card: int) -> bool:
    # Unrolled over the five colours: this is the innermost test of every playout.
    white, blue, green, red, black = _CARD_COSTS[card]
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
    return shortfall <= power[5]


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


@lru_cache(maxsize=4096)
def _return_actions(tokens: Tokens) -> tuple[ReturnTokens, ...]:
    # A pure function of the hand, asked for again and again in playouts: worth remembering.
    return tuple(ReturnTokens(returned) for returned in return_options(tokens))


def qualifying_nobles(state: GameState, player: PlayerState) -> tuple[int, ...]:
    """The nobles on the table whose requirements the player's bonuses meet."""
    if len(player.cards) < _FEWEST_CARDS_FOR_A_NOBLE:
        return ()
    bonuses = player.bonuses
    return tuple(
        noble for noble in state.nobles if all(map(ge, bonuses, _NOBLE_REQUIREMENTS[noble]))
    )
