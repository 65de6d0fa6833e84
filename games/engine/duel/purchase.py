"""Buying a card and everything that follows it: the joker's colour, the card's ability, crowns
and royal cards.

Rulebook, "Purchase 1 Jewel card", "Card abilities" and "Crowns". The steps run in this order,
each its own decision when there is a choice to make and skipped when there is nothing to choose
from (docs/decisions/0044-duel-decisions-and-turn-order.md): place a joker with a colour,
resolve the card's ability, take a royal card on reaching the third or sixth crown and resolve
its ability, then end the turn.
"""

from __future__ import annotations

from operator import add, le, sub

from games.engine.duel.actions import (
    BuyCard,
    ChooseJokerColour,
    ChooseRoyal,
    StealToken,
    TakeMatchingToken,
)
from games.engine.duel.board import EMPTY, SPACES
from games.engine.duel.catalogue import (
    CARDS,
    EXTRA_TURN,
    JOKER,
    PRIVILEGE,
    ROYALS,
    STEAL,
    TAKE_TOKEN,
)
from games.engine.duel.legality import (
    amount_due,
    default_payment,
    joker_colours,
    matching_colour,
    spaces_of,
    stealable_colours,
)
from games.engine.duel.players import (
    replace_seat,
    take_privilege,
    with_card,
    with_joker_colour,
    with_royal,
    with_tokens,
)
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    CROWN_THRESHOLDS,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
    DuelState,
    PlayerState,
)
from games.engine.duel.tokens import COLOUR_NAMES, COST_COLOURS, GEM_COLOURS, GOLD, Tokens
from games.engine.duel.turn_end import end_turn
from games.engine.errors import IllegalAction


def buy_card(state: DuelState, action: BuyCard) -> DuelState:
    seat = state.current
    player = state.players[seat]
    card = action.card
    if type(card) is not int or not 0 <= card < len(CARDS):
        raise IllegalAction(f"There is no card {card}.")
    level_index = CARDS[card].level - 1
    from_reserve = card in player.reserved
    if not from_reserve and card not in state.pyramid[level_index]:
        opponent = state.players[1 - seat]
        if card in opponent.reserved and card not in opponent.blind:
            # Only for cards reserved from the pyramid: saying so of a blind one would reveal it.
            raise IllegalAction("Only the player who reserved a card may buy it.")
        raise IllegalAction(f"Card {card} is neither in the pyramid nor in your reserve.")
    bought = CARDS[card]
    options = joker_colours(player) if bought.colour == JOKER else []
    if bought.colour == JOKER and not options:
        raise IllegalAction(
            "A joker card must join one of your cards with a bonus, and you have none yet."
        )
    if action.payment is None:
        payment = default_payment(player, card)
        # Built to match the cost exactly; only the gold it calls for may be missing.
        if payment[GOLD] > player.tokens[GOLD]:
            raise IllegalAction("You cannot afford that card, even with your gold.")
    else:
        payment = action.payment
        _check_payment(player, card, payment)
    reserved, blind = player.reserved, player.blind
    if from_reserve:
        reserved = tuple(held for held in reserved if held != card)
        blind = tuple(held for held in blind if held != card)
        pyramid = state.pyramid
    else:
        row = state.pyramid[level_index]
        emptied = tuple(None if slot == card else slot for slot in row)
        pyramid = (*state.pyramid[:level_index], emptied, *state.pyramid[level_index + 1 :])
    colour = options[0] if len(options) == 1 else bought.colour
    crowns_before = player.crowns
    tokens = tuple(map(sub, player.tokens, payment))
    player = with_card(player, card, colour, tokens, reserved, blind)
    royal_due = any(crowns_before < threshold <= player.crowns for threshold in CROWN_THRESHOLDS)
    state = DuelState(
        replace_seat(state.players, seat, player),
        state.board,
        tuple(map(add, state.bag, payment)),
        state.bag_draws,
        state.replenishments,
        state.decks,
        pyramid,
        state.royals,
        seat,
        CHOOSE_JOKER_COLOUR if colour == JOKER else state.phase,
        state.turn,
        state.extra_turn,
        card,
        royal_due,
        state.passes,
    )
    if colour == JOKER:
        return state
    return resolve_ability(state)


def choose_joker_colour(state: DuelState, action: ChooseJokerColour) -> DuelState:
    player = state.players[state.current]
    colour = action.colour
    if colour not in joker_colours(player):
        name = COLOUR_NAMES[colour] if colour in GEM_COLOURS else str(colour)
        raise IllegalAction(
            f"The joker card must join a colour of your cards with a bonus; you have no {name}."
        )
    player = with_joker_colour(player, colour)
    players = replace_seat(state.players, state.current, player)
    return resolve_ability(state._replace(players=players))


def take_matching_token(state: DuelState, action: TakeMatchingToken) -> DuelState:
    colour = matching_colour(state)
    space = action.space
    if type(space) is not int or not 0 <= space < SPACES or state.board[space] != colour:
        raise IllegalAction(
            f"The card's ability takes a {COLOUR_NAMES[colour]} token: choose a space holding one."
        )
    return resolve_royal(take_from_board(state, space))


def steal_token(state: DuelState, action: StealToken) -> DuelState:
    colour = action.colour
    opponent = state.players[1 - state.current]
    if colour == GOLD:
        raise IllegalAction("A gold token cannot be taken from your opponent.")
    if colour not in COST_COLOURS or not opponent.tokens[colour]:
        name = COLOUR_NAMES[colour] if colour in COST_COLOURS else str(colour)
        raise IllegalAction(f"Your opponent has no {name} token to take.")
    return resolve_royal(steal(state, colour))


def choose_royal(state: DuelState, action: ChooseRoyal) -> DuelState:
    if action.royal not in state.royals:
        choices = ", ".join(str(royal) for royal in state.royals)
        raise IllegalAction(f"Royal card {action.royal} is not one of your choices ({choices}).")
    return gain_royal(state, action.royal)


def resolve_ability(state: DuelState) -> DuelState:
    """The bought card's ability; an ability that cannot apply is ignored (rulebook)."""
    ability = CARDS[state.pending_card if state.pending_card is not None else -1].ability
    if ability == EXTRA_TURN:
        state = state._replace(extra_turn=True)
    elif ability == PRIVILEGE:
        state = state._replace(players=take_privilege(state.players, state.current))
    elif ability == TAKE_TOKEN:
        spaces = spaces_of(state.board, matching_colour(state))
        if len(spaces) > 1:
            return state._replace(phase=TAKE_MATCHING_TOKEN)
        if spaces:
            state = take_from_board(state, spaces[0])
    elif ability == STEAL:
        return start_steal(state)
    return resolve_royal(state)


def resolve_royal(state: DuelState) -> DuelState:
    """A royal card when the purchase reached a third or sixth crown, then the turn's end."""
    if not state.royal_due:
        return end_turn(state)
    if len(state.royals) > 1:
        return state._replace(phase=CHOOSE_ROYAL)
    return gain_royal(state, state.royals[0])


def gain_royal(state: DuelState, royal: int) -> DuelState:
    seat = state.current
    player = with_royal(state.players[seat], royal)
    state = state._replace(
        players=replace_seat(state.players, seat, player),
        royals=tuple(left for left in state.royals if left != royal),
        royal_due=False,
    )
    ability = ROYALS[royal].ability
    if ability == EXTRA_TURN:
        state = state._replace(extra_turn=True)
    elif ability == PRIVILEGE:
        state = state._replace(players=take_privilege(state.players, seat))
    elif ability == STEAL:
        return start_steal(state)
    return end_turn(state)


def start_steal(state: DuelState) -> DuelState:
    """The "Take" ability: a choice when the opponent holds several colours, else automatic."""
    colours = stealable_colours(state.players[1 - state.current])
    if len(colours) > 1:
        return state._replace(phase=STEAL_TOKEN)
    if colours:
        state = steal(state, colours[0])
    return resolve_royal(state)


def steal(state: DuelState, colour: int) -> DuelState:
    seat = state.current
    players = replace_seat(state.players, seat, with_tokens(state.players[seat], colour, 1))
    other = 1 - seat
    players = replace_seat(players, other, with_tokens(players[other], colour, -1))
    return state._replace(players=players)


def take_from_board(state: DuelState, space: int) -> DuelState:
    seat = state.current
    colour = state.board[space]
    player = with_tokens(state.players[seat], colour, 1)
    board = (*state.board[:space], EMPTY, *state.board[space + 1 :])
    return state._replace(players=replace_seat(state.players, seat, player), board=board)


def _check_payment(player: PlayerState, card: int, payment: Tokens) -> None:
    """The payment must be exactly the cost less bonuses, gold standing in for any token."""
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
    due = amount_due(player.bonuses, card)
    for colour in COST_COLOURS:
        if payment[colour] > due[colour]:
            raise IllegalAction(
                f"That pays too much {COLOUR_NAMES[colour]}: after your bonuses the card "
                f"costs {due[colour]}."
            )
    gold_due = sum(due) - sum(payment[:GOLD])
    if payment[GOLD] != gold_due:
        raise IllegalAction(
            f"That payment does not match the cost: it needs {gold_due} gold with those "
            f"tokens, not {payment[GOLD]}."
        )
