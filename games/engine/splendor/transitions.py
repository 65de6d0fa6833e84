"""Applying an action: check it once against the rules, then build the next state.

Every step returns a new :class:`GameState`; the state passed in is never changed. A turn is the
player's action, then returning tokens above ten (its own decision), then a noble's visit (its
own decision when several qualify), then the end-of-round check.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add, le, sub
from typing import Any

from games.engine.errors import IllegalAction
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
from games.engine.splendor.gems import COLOUR_NAMES, GEM_COLOURS, GOLD, Tokens
from games.engine.splendor.legality import (
    TAKE_DIFFERENT,
    TAKE_TWO_MINIMUM,
    amount_due,
    default_payment,
    main_actions,
    qualifying_nobles,
)
from games.engine.splendor.state import (
    CHOOSE_NOBLE,
    GAME_OVER,
    MAIN,
    RESERVE_LIMIT,
    RETURN_TOKENS,
    TOKEN_LIMIT,
    WINNING_POINTS,
    GameState,
    PlayerState,
)


def apply_action(state: GameState, action: Action) -> GameState:
    """The state after the player to act takes ``action``.

    Raises :class:`IllegalAction`, with a message for the player, if the rules forbid it.
    """
    handler = _HANDLERS[state.phase].get(type(action))
    if handler is None:
        raise IllegalAction(_out_of_phase_message(state, action))
    return handler(state, action)


# The main actions ---------------------------------------------------------------------------


def _take_gems(state: GameState, action: TakeGems) -> GameState:
    gems = action.gems
    supply = state.supply
    if not _is_plain_take_of_three(gems, supply):
        _check_gems_to_take(gems, supply)
    new_supply = list(supply)
    player = state.players[state.current]
    tokens = list(player.tokens)
    for colour in gems:
        new_supply[colour] -= 1
        tokens[colour] += 1
    player = PlayerState(
        tuple(tokens), player.cards, player.reserved, player.blind, player.nobles,
        player.bonuses, player.points,
    )  # fmt: skip
    return _conclude_action(state, player, supply=tuple(new_supply))


def _is_plain_take_of_three(gems: tuple[int, ...], supply: Tokens) -> bool:
    """The usual case, three different gem colours all in the supply, checked in a few steps."""
    if len(gems) != TAKE_DIFFERENT:
        return False
    first, second, third = gems
    return (
        first in GEM_COLOURS
        and second in GEM_COLOURS
        and third in GEM_COLOURS
        and first != second != third != first
        and supply[first] > 0
        and supply[second] > 0
        and supply[third] > 0
    )


def _check_gems_to_take(gems: tuple[int, ...], supply: Tokens) -> None:
    for colour in gems:
        if colour == GOLD:
            raise IllegalAction("Gold cannot be taken: reserve a card to get a gold token.")
        if colour not in GEM_COLOURS:
            raise IllegalAction(f"There is no gem colour {colour}.")
    if len(gems) == 2 and gems[0] == gems[1]:
        if supply[gems[0]] < TAKE_TWO_MINIMUM:
            raise IllegalAction(
                f"Two {COLOUR_NAMES[gems[0]]} tokens can be taken only when at least "
                f"{TAKE_TWO_MINIMUM} are in the supply; there are {supply[gems[0]]}."
            )
        return
    if len(set(gems)) != len(gems):
        raise IllegalAction("Take tokens of different colours, or two of one colour.")
    for colour in gems:
        if not supply[colour]:
            raise IllegalAction(f"There are no {COLOUR_NAMES[colour]} tokens left to take.")
    colours_left = sum(1 for colour in GEM_COLOURS if supply[colour])
    if not gems or len(gems) != min(TAKE_DIFFERENT, colours_left):
        if colours_left >= TAKE_DIFFERENT:
            raise IllegalAction(
                "Take three tokens of different colours, or two tokens of one colour."
            )
        raise IllegalAction(
            f"Only {colours_left} colour(s) are left in the supply: take one of each."
        )


def _reserve_card(state: GameState, action: ReserveCard) -> GameState:
    player = state.players[state.current]
    _check_can_reserve(player)
    card = action.card
    if card not in state.board[_card_level(card) - 1]:
        raise IllegalAction(f"Card {card} is not face up on the board.")
    decks, board = _refill_slot(state, card)
    return _reserve(state, player, card, blind=False, decks=decks, board=board)


def _reserve_from_deck(state: GameState, action: ReserveFromDeck) -> GameState:
    player = state.players[state.current]
    _check_can_reserve(player)
    level = action.level
    if level not in LEVELS:
        raise IllegalAction(f"There is no level {level} deck: levels are 1, 2 and 3.")
    deck = state.decks[level - 1]
    if not deck:
        raise IllegalAction(f"The level {level} deck is empty.")
    decks = list(state.decks)
    decks[level - 1] = deck[1:]
    return _reserve(state, player, deck[0], blind=True, decks=tuple(decks), board=state.board)


def _reserve(
    state: GameState,
    player: PlayerState,
    card: int,
    *,
    blind: bool,
    decks: tuple[tuple[int, ...], ...],
    board: tuple[tuple[int | None, ...], ...],
) -> GameState:
    """Put the card in the player's hand, with a gold token if any is left."""
    supply = state.supply
    tokens = player.tokens
    if supply[GOLD]:
        supply = (*supply[:GOLD], supply[GOLD] - 1)
        tokens = (*tokens[:GOLD], tokens[GOLD] + 1)
    player = player._replace(
        tokens=tokens,
        reserved=(*player.reserved, card),
        blind=(*player.blind, card) if blind else player.blind,
    )
    return _conclude_action(state, player, supply=supply, decks=decks, board=board)


def _buy_card(state: GameState, action: BuyCard) -> GameState:
    player = state.players[state.current]
    card = action.card
    level = _card_level(card)
    if card in player.reserved:
        from_reserve = True
    elif card in state.board[level - 1]:
        from_reserve = False
    elif any(card in other.reserved and card not in other.blind for other in state.players):
        # Only for cards reserved face up: saying so of a blind reserve would reveal it.
        raise IllegalAction("Only the player who reserved a card may buy it.")
    else:
        raise IllegalAction(f"Card {card} is neither face up on the board nor in your hand.")
    if action.payment is None:
        payment = default_payment(player, card)
        # Built to match the cost exactly; only the gold it calls for may be missing.
        if payment[GOLD] > player.tokens[GOLD]:
            raise IllegalAction("You cannot afford that card, even with your gold.")
    else:
        payment = action.payment
        _check_payment(player, card, payment)
    bought = CARDS[card]
    bonuses = list(player.bonuses)
    bonuses[bought.colour] += 1
    reserved, blind = player.reserved, player.blind
    decks, board = state.decks, state.board
    if from_reserve:
        reserved = tuple(held for held in reserved if held != card)
        blind = tuple(held for held in blind if held != card)
    else:
        decks, board = _refill_slot(state, card)
    player = PlayerState(
        tokens=tuple(map(sub, player.tokens, payment)),
        cards=(*player.cards, card),
        reserved=reserved,
        blind=blind,
        nobles=player.nobles,
        bonuses=tuple(bonuses),
        points=player.points + bought.points,
    )
    supply = tuple(map(add, state.supply, payment))
    return _conclude_action(state, player, supply=supply, decks=decks, board=board)


def _pass(state: GameState, action: Pass) -> GameState:
    if main_actions(state):
        raise IllegalAction("You may pass only when no other action is possible.")
    player = state.players[state.current]
    return _conclude_action(state, player, passes=state.passes_this_round + 1)


# The decisions that follow an action ----------------------------------------------------------


def _return_tokens(state: GameState, action: ReturnTokens) -> GameState:
    player = state.players[state.current]
    returned = action.tokens
    excess = sum(player.tokens) - TOKEN_LIMIT
    if len(returned) != len(player.tokens) or any(count < 0 for count in returned):
        raise IllegalAction("Say how many tokens of each colour to return, none below zero.")
    if sum(returned) != excess:
        raise IllegalAction(
            f"Return exactly {excess} token(s): you hold {sum(player.tokens)} "
            f"and may keep {TOKEN_LIMIT}."
        )
    for colour, count in enumerate(returned):
        if count > player.tokens[colour]:
            raise IllegalAction(f"You hold only {player.tokens[colour]} {COLOUR_NAMES[colour]}.")
    tokens = tuple(held - count for held, count in zip(player.tokens, returned, strict=True))
    supply = tuple(left + count for left, count in zip(state.supply, returned, strict=True))
    players = _with_player(state, player._replace(tokens=tokens))
    return _visit_nobles(state, players, supply, state.decks, state.board, state.passes_this_round)


def _choose_noble(state: GameState, action: ChooseNoble) -> GameState:
    if action.noble not in state.pending_nobles:
        choices = ", ".join(str(noble) for noble in state.pending_nobles)
        raise IllegalAction(f"Noble {action.noble} is not one of your choices ({choices}).")
    players = _with_noble(state.players, state.current, action.noble)
    nobles = tuple(left for left in state.nobles if left != action.noble)
    return _end_turn(
        state, players, state.supply, state.decks, state.board, nobles, state.passes_this_round
    )


# Shared steps: each action ends by building exactly one new state ---------------------------


def _conclude_action(
    state: GameState,
    player: PlayerState,
    *,
    supply: Tokens | None = None,
    decks: tuple[tuple[int, ...], ...] | None = None,
    board: tuple[tuple[int | None, ...], ...] | None = None,
    passes: int | None = None,
) -> GameState:
    """After the action: returning tokens above ten comes first, then the nobles."""
    players = _with_player(state, player)
    supply = state.supply if supply is None else supply
    decks = state.decks if decks is None else decks
    board = state.board if board is None else board
    passes = state.passes_this_round if passes is None else passes
    if sum(player.tokens) > TOKEN_LIMIT:
        return GameState(
            players, supply, decks, board, state.nobles, state.current, RETURN_TOKENS,
            state.turn, passes, (),
        )  # fmt: skip
    return _visit_nobles(state, players, supply, decks, board, passes)


def _visit_nobles(
    state: GameState,
    players: tuple[PlayerState, ...],
    supply: Tokens,
    decks: tuple[tuple[int, ...], ...],
    board: tuple[tuple[int | None, ...], ...],
    passes: int,
) -> GameState:
    """At most one noble per turn, and never refused; the player chooses among several."""
    candidates = qualifying_nobles(state, players[state.current])
    if len(candidates) > 1:
        return GameState(
            players, supply, decks, board, state.nobles, state.current, CHOOSE_NOBLE,
            state.turn, passes, candidates,
        )  # fmt: skip
    nobles = state.nobles
    if candidates:
        players = _with_noble(players, state.current, candidates[0])
        nobles = tuple(left for left in nobles if left != candidates[0])
    return _end_turn(state, players, supply, decks, board, nobles, passes)


def _end_turn(
    state: GameState,
    players: tuple[PlayerState, ...],
    supply: Tokens,
    decks: tuple[tuple[int, ...], ...],
    board: tuple[tuple[int | None, ...], ...],
    nobles: tuple[int, ...],
    passes: int,
) -> GameState:
    """Pass play on; at the end of a round, end the game if someone has 15 points or all passed."""
    seats = len(players)
    turn = state.turn + 1
    current = state.current + 1
    phase = MAIN
    if current == seats:
        top_score = max(player.points for player in players)
        if top_score >= WINNING_POINTS or passes == seats:
            current, phase = state.current, GAME_OVER
        else:
            current, passes = 0, 0
    return GameState(players, supply, decks, board, nobles, current, phase, turn, passes, ())


def _with_noble(players: tuple[PlayerState, ...], seat: int, noble: int) -> tuple[PlayerState, ...]:
    player = players[seat]
    visited = player._replace(
        nobles=(*player.nobles, noble), points=player.points + NOBLES[noble].points
    )
    return (*players[:seat], visited, *players[seat + 1 :])


def _check_can_reserve(player: PlayerState) -> None:
    if len(player.reserved) >= RESERVE_LIMIT:
        raise IllegalAction(
            f"You already hold {RESERVE_LIMIT} reserved cards: buy one before reserving again."
        )


def _refill_slot(
    state: GameState, card: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int | None, ...], ...]]:
    """The decks and board once the card's slot is filled from the top of its level's deck."""
    index = CARDS[card].level - 1
    deck = state.decks[index]
    row = list(state.board[index])
    row[row.index(card)] = deck[0] if deck else None
    board = list(state.board)
    board[index] = tuple(row)
    decks = list(state.decks)
    decks[index] = deck[1:]
    return tuple(decks), tuple(board)


def _check_payment(player: PlayerState, card: int, payment: Tokens) -> None:
    """The payment must be exactly the cost less bonuses, gold standing in for any colour."""
    held = player.tokens
    if len(payment) != len(held) or min(payment) < 0:
        raise IllegalAction("A payment gives a count of zero or more for each token colour.")
    if not all(map(le, payment, held)):
        if payment[GOLD] > held[GOLD] and all(map(le, payment[:GOLD], held)):
            raise IllegalAction("You cannot afford that card, even with your gold.")
        colour = next(colour for colour, count in enumerate(payment) if count > held[colour])
        raise IllegalAction(
            f"You cannot pay {payment[colour]} {COLOUR_NAMES[colour]}: you hold {held[colour]}."
        )
    due = amount_due(player, card)
    for colour in GEM_COLOURS:
        if payment[colour] > due[colour]:
            raise IllegalAction(
                f"That pays too much {COLOUR_NAMES[colour]}: after your bonuses the card "
                f"costs {due[colour]}."
            )
    gold_due = sum(due) - sum(payment[:GOLD])
    if payment[GOLD] != gold_due:
        raise IllegalAction(
            f"That payment does not match the cost: it needs {gold_due} gold with those "
            f"coloured tokens, not {payment[GOLD]}."
        )


def _card_level(card: int) -> int:
    if type(card) is not int or not 0 <= card < len(CARDS):
        raise IllegalAction(f"There is no card {card}.")
    return CARDS[card].level


def _with_player(state: GameState, player: PlayerState) -> tuple[PlayerState, ...]:
    seat = state.current
    return (*state.players[:seat], player, *state.players[seat + 1 :])


def _out_of_phase_message(state: GameState, action: Action) -> str:
    if state.phase == GAME_OVER:
        return "The game is over."
    if state.phase == RETURN_TOKENS:
        excess = sum(state.players[state.current].tokens) - TOKEN_LIMIT
        return f"First return {excess} token(s): you may keep {TOKEN_LIMIT}."
    if state.phase == CHOOSE_NOBLE:
        return "First choose which noble visits you."
    if isinstance(action, ReturnTokens):
        return f"You have no tokens to return: you hold {TOKEN_LIMIT} or fewer."
    if isinstance(action, ChooseNoble):
        return "No noble is waiting for your choice."
    return f"{action!r} is not a Splendor action."


_Handler = Callable[[GameState, Any], GameState]
_HANDLERS: dict[str, dict[type, _Handler]] = {
    MAIN: {
        TakeGems: _take_gems,
        ReserveCard: _reserve_card,
        ReserveFromDeck: _reserve_from_deck,
        BuyCard: _buy_card,
        Pass: _pass,
    },
    RETURN_TOKENS: {ReturnTokens: _return_tokens},
    CHOOSE_NOBLE: {ChooseNoble: _choose_noble},
    GAME_OVER: {},
}
