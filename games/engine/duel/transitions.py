"""Applying an action: check it once against the rules, then build the next state.

Every step returns a new :class:`DuelState`; the state passed in is never changed. A turn is the
optional actions (spend privileges, then replenish), one mandatory action (take a line of
tokens, take a gold and reserve, or buy a card and resolve what follows: ``purchase``), then the
end of the turn (``turn_end``). Each decision is its own action, announced by the phase.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine.duel.actions import (
    ACTION_TYPES,
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
from games.engine.duel.board import (
    EMPTY,
    LINES,
    SPACES,
    draw_order,
    is_straight,
    lay_out,
    space_name,
)
from games.engine.duel.catalogue import CARDS, LEVELS
from games.engine.duel.legality import PASS, has_card_to_reserve, legal_actions
from games.engine.duel.players import replace_seat, take_privilege
from games.engine.duel.purchase import (
    buy_card,
    choose_joker_colour,
    choose_royal,
    steal_token,
    take_matching_token,
)
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    DISCARD_TOKENS,
    GAME_OVER,
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
from games.engine.duel.tokens import COLOUR_NAMES, GOLD, NO_TOKENS, PEARL
from games.engine.duel.turn_end import end_turn, finish_turn
from games.engine.errors import IllegalAction

_LINE_SET = frozenset(LINES)
SAME_COLOUR_FOR_PRIVILEGE = 3
PEARLS_FOR_PRIVILEGE = 2


def apply_action(state: DuelState, action: Action) -> DuelState:
    """The state after the player to act takes ``action``.

    Raises :class:`IllegalAction`, with a message for the player, if the rules forbid it.
    """
    handler = _HANDLERS[state.phase].get(type(action))
    if handler is None:
        raise IllegalAction(_out_of_phase_message(state, action))
    return handler(state, action)


# Optional actions ------------------------------------------------------------------------------


def _use_privilege(state: DuelState, action: UsePrivilege) -> DuelState:
    """Rulebook, "Use a Privilege": return one to take a gem or pearl token, never gold."""
    seat = state.current
    player = state.players[seat]
    if not player.privileges:
        raise IllegalAction("You have no privilege to spend.")
    space = _check_space(action.space)
    token = state.board[space]
    if token == EMPTY:
        raise IllegalAction(f"There is no token on {space_name(space)}.")
    if token == GOLD:
        raise IllegalAction(
            "A privilege cannot take a gold token: gold comes only with reserving a card."
        )
    player = player._replace(
        tokens=_plus_one(player.tokens, token), privileges=player.privileges - 1
    )
    return state._replace(
        players=replace_seat(state.players, seat, player), board=_emptied(state.board, (space,))
    )


def _replenish(state: DuelState, action: Replenish) -> DuelState:
    """Rulebook, "Replenish the Game Board": the bag's tokens go onto the empty spaces along the
    spiral, in the recorded draw order; then the opponent takes a privilege."""
    if not any(state.bag):
        raise IllegalAction("The bag is empty: there is nothing to replenish the board with.")
    order = state.bag_draws[state.replenishments % len(state.bag_draws)]
    return state._replace(
        players=take_privilege(state.players, 1 - state.current),
        board=lay_out(state.board, draw_order(state.bag, order)),
        bag=NO_TOKENS,
        replenishments=state.replenishments + 1,
        phase=MANDATORY,
    )


# Mandatory actions -----------------------------------------------------------------------------


def _take_tokens(state: DuelState, action: TakeTokens) -> DuelState:
    """Rulebook, "Take up to 3 tokens": adjacent gem or pearl tokens in one unbroken line.

    Three of one colour, or both pearls, give the opponent a privilege.
    """
    spaces = action.spaces
    if spaces not in _LINE_SET:
        spaces = tuple(sorted(spaces))
    board = state.board
    colours = [board[space] for space in spaces] if spaces in _LINE_SET else []
    if not colours or EMPTY in colours or GOLD in colours:
        _explain_bad_line(board, spaces)
    seat = state.current
    player = state.players[seat]
    tokens = list(player.tokens)
    cells = list(board)
    for space in spaces:
        tokens[board[space]] += 1
        cells[space] = EMPTY
    players = replace_seat(state.players, seat, PlayerState(tuple(tokens), *player[1:]))
    three_alike = len(spaces) == SAME_COLOUR_FOR_PRIVILEGE and len(set(colours)) == 1
    if three_alike or colours.count(PEARL) >= PEARLS_FOR_PRIVILEGE:
        players = take_privilege(players, 1 - seat)
    # Built field by field rather than with _replace: taking tokens is most turns of a game.
    return end_turn(DuelState(players, tuple(cells), *state[2:]))


def _explain_bad_line(board: tuple[int, ...], spaces: tuple[int, ...]) -> None:
    if not 1 <= len(spaces) <= 3:
        raise IllegalAction("Take one, two or three tokens.")
    for space in spaces:
        _check_space(space)
    if len(set(spaces)) != len(spaces):
        raise IllegalAction("Each space can be taken only once.")
    for space in spaces:
        if board[space] == EMPTY:
            raise IllegalAction(f"There is no token on {space_name(space)}.")
        if board[space] == GOLD:
            raise IllegalAction(
                "Gold cannot be taken in a line: take a gold token by reserving a card."
            )
    if is_straight(spaces):
        raise IllegalAction(
            "The tokens must be next to each other: a line cannot have a gap in it."
        )
    raise IllegalAction("The tokens must be in one straight line: a row, a column or a diagonal.")


def _take_gold(state: DuelState, action: TakeGold) -> DuelState:
    """Rulebook, "Take 1 Gold token and reserve 1 Jewel card": the gold first, then the card."""
    seat = state.current
    player = state.players[seat]
    if len(player.reserved) >= RESERVE_LIMIT:
        raise IllegalAction(
            f"You already hold {RESERVE_LIMIT} reserved cards: buy one before reserving again."
        )
    space = _check_space(action.space)
    if state.board[space] != GOLD:
        raise IllegalAction(f"There is no gold token on {space_name(space)}.")
    if not has_card_to_reserve(state):
        raise IllegalAction("There is no card left to reserve.")
    player = player._replace(tokens=_plus_one(player.tokens, GOLD))
    return state._replace(
        players=replace_seat(state.players, seat, player),
        board=_emptied(state.board, (space,)),
        phase=RESERVE,
    )


def _reserve_card(state: DuelState, action: ReserveCard) -> DuelState:
    card = action.card
    if type(card) is not int or not 0 <= card < len(CARDS):
        raise IllegalAction(f"There is no card {card}.")
    index = CARDS[card].level - 1
    row = state.pyramid[index]
    if card not in row:
        raise IllegalAction(f"Card {card} is not in the pyramid.")
    emptied = tuple(None if slot == card else slot for slot in row)
    pyramid = (*state.pyramid[:index], emptied, *state.pyramid[index + 1 :])
    return _reserve(state._replace(pyramid=pyramid), card, blind=False)


def _reserve_from_deck(state: DuelState, action: ReserveFromDeck) -> DuelState:
    level = action.level
    if level not in LEVELS:
        raise IllegalAction(f"There is no level {level} deck: levels are 1, 2 and 3.")
    deck = state.decks[level - 1]
    if not deck:
        raise IllegalAction(f"The level {level} deck is empty.")
    decks = (*state.decks[: level - 1], deck[1:], *state.decks[level:])
    return _reserve(state._replace(decks=decks), deck[0], blind=True)


def _reserve(state: DuelState, card: int, *, blind: bool) -> DuelState:
    seat = state.current
    player = state.players[seat]
    player = player._replace(
        reserved=(*player.reserved, card),
        blind=(*player.blind, card) if blind else player.blind,
    )
    return end_turn(state._replace(players=replace_seat(state.players, seat, player)))


def _pass(state: DuelState, action: Pass) -> DuelState:
    if legal_actions(state) != [PASS]:
        raise IllegalAction("You may pass only when no other action is possible.")
    return end_turn(state, passed=True)


# The end of the turn ---------------------------------------------------------------------------


def _discard_tokens(state: DuelState, action: DiscardTokens) -> DuelState:
    seat = state.current
    player = state.players[seat]
    discarded = action.tokens
    excess = sum(player.tokens) - TOKEN_LIMIT
    if len(discarded) != len(player.tokens) or any(count < 0 for count in discarded):
        raise IllegalAction("Say how many tokens of each colour to put back, none below zero.")
    if sum(discarded) != excess:
        raise IllegalAction(
            f"Put back exactly {excess} token(s): you hold {sum(player.tokens)} "
            f"and may keep {TOKEN_LIMIT}."
        )
    for colour, count in enumerate(discarded):
        if count > player.tokens[colour]:
            raise IllegalAction(f"You hold only {player.tokens[colour]} {COLOUR_NAMES[colour]}.")
    tokens = tuple(held - count for held, count in zip(player.tokens, discarded, strict=True))
    bag = tuple(held + count for held, count in zip(state.bag, discarded, strict=True))
    player = player._replace(tokens=tokens)
    state = state._replace(players=replace_seat(state.players, seat, player), bag=bag)
    return finish_turn(state)


# Shared steps ----------------------------------------------------------------------------------


def _check_space(space: int) -> int:
    if type(space) is not int or not 0 <= space < SPACES:
        raise IllegalAction(f"There is no space {space} on the board.")
    return space


def _emptied(board: tuple[int, ...], spaces: tuple[int, ...]) -> tuple[int, ...]:
    cells = list(board)
    for space in spaces:
        cells[space] = EMPTY
    return tuple(cells)


def _plus_one(tokens: tuple[int, ...], colour: int) -> tuple[int, ...]:
    return (*tokens[:colour], tokens[colour] + 1, *tokens[colour + 1 :])


_MESSAGES: dict[str, str] = {
    GAME_OVER: "The game is over.",
    RESERVE: "First choose the card to reserve with your gold token.",
    CHOOSE_JOKER_COLOUR: "First choose the colour your joker card joins.",
    TAKE_MATCHING_TOKEN: "First take the token your card's ability gives you.",
    STEAL_TOKEN: "First choose the token to take from your opponent.",
    CHOOSE_ROYAL: "First choose your royal card.",
}
_NOT_NOW: dict[type, str] = {
    ReserveCard: "Reserving a card starts with taking a gold token.",
    ReserveFromDeck: "Reserving a card starts with taking a gold token.",
    ChooseJokerColour: "No joker card is waiting for a colour.",
    TakeMatchingToken: "No card ability lets you take a token now.",
    StealToken: "No ability lets you take a token from your opponent now.",
    ChooseRoyal: "No royal card is waiting for your choice.",
    DiscardTokens: f"You have no tokens to put back: you hold {TOKEN_LIMIT} or fewer.",
}


def _out_of_phase_message(state: DuelState, action: Action) -> str:
    if type(action) not in ACTION_TYPES:
        return "That is not a Splendor Duel action."
    if state.phase in _MESSAGES:
        return _MESSAGES[state.phase]
    if state.phase == DISCARD_TOKENS:
        excess = sum(state.players[state.current].tokens) - TOKEN_LIMIT
        return f"First put back {excess} token(s): you may keep {TOKEN_LIMIT}."
    if state.phase == MANDATORY and isinstance(action, UsePrivilege):
        return "Privileges are spent before replenishing the board, not after."
    if state.phase == MANDATORY and isinstance(action, Replenish):
        return "The board was already replenished this turn."
    return _NOT_NOW.get(type(action), "That action is not possible now.")


_Handler = Callable[[DuelState, Any], DuelState]
_MANDATORY: dict[type, _Handler] = {
    TakeTokens: _take_tokens,
    TakeGold: _take_gold,
    BuyCard: buy_card,
    Pass: _pass,
}
_HANDLERS: dict[str, dict[type, _Handler]] = {
    MAIN: {UsePrivilege: _use_privilege, Replenish: _replenish, **_MANDATORY},
    MANDATORY: _MANDATORY,
    RESERVE: {ReserveCard: _reserve_card, ReserveFromDeck: _reserve_from_deck},
    CHOOSE_JOKER_COLOUR: {ChooseJokerColour: choose_joker_colour},
    TAKE_MATCHING_TOKEN: {TakeMatchingToken: take_matching_token},
    STEAL_TOKEN: {StealToken: steal_token},
    CHOOSE_ROYAL: {ChooseRoyal: choose_royal},
    DISCARD_TOKENS: {DiscardTokens: _discard_tokens},
    GAME_OVER: {},
}
