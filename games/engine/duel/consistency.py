"""Whether a state read from JSON is one the rules could reach, so that the game can go on.

Every card and royal in exactly one place, all 25 tokens and 3 privileges accounted for, royals
matching crowns, jokers joined to colours their owner had, and a phase with something to do.
"""

from __future__ import annotations

from typing import Any

from games.engine.duel.board import SPACES
from games.engine.duel.catalogue import (
    CARDS,
    JOKER,
    LEVELS,
    PRIVILEGES,
    PYRAMID_WIDTHS,
    ROYALS,
    TAKE_TOKEN,
    TOKEN_COUNTS,
)
from games.engine.duel.legality import joker_colours, spaces_of, stealable_colours
from games.engine.duel.scoring import has_won
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    CROWN_THRESHOLDS,
    DISCARD_TOKENS,
    GAME_OVER,
    MAIN,
    MANDATORY,
    PLAYERS,
    PURCHASE_PHASES,
    RESERVE,
    RESERVE_LIMIT,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
    TOKEN_LIMIT,
    DuelState,
)
from games.engine.duel.tokens import GEM_COLOURS
from games.engine.errors import MalformedJSON

_MID_TURN_PHASES = (*PURCHASE_PHASES, DISCARD_TOKENS, GAME_OVER)
"""Phases in which a pyramid slot taken this turn may still be empty (refilled at turn's end)."""
_TURN_START_PHASES = (MAIN, MANDATORY, RESERVE)
"""Phases before the turn's mandatory action: nobody can have won yet."""


def check_consistent(state: DuelState) -> None:
    """Refuse, with ``MalformedJSON``, a state the rules could not have reached."""
    if len(state.players) != PLAYERS:
        raise MalformedJSON(f"a state has {PLAYERS} players")
    if state.current not in range(PLAYERS):
        raise MalformedJSON("current must be seat 0 or 1")
    if state.turn < 0 or state.replenishments < 0 or not 0 <= state.passes <= 2:
        raise MalformedJSON("turn, replenishments and passes must be counts within the game")
    if state.passes == 2 and state.phase not in (DISCARD_TOKENS, GAME_OVER):
        raise MalformedJSON("two passes in a row end the game")
    shuffles = state.bag_draws
    if not shuffles or any(sorted(order) != list(range(SPACES)) for order in shuffles):
        raise MalformedJSON("each bag draw must be a shuffle of 0 to 24")
    _check_tokens(state)
    _check_cards(state)
    _check_players(state)
    _check_phase(state)


def _check_tokens(state: DuelState) -> None:
    totals = [
        sum(1 for token in state.board if token == colour)
        + state.bag[colour]
        + sum(player.tokens[colour] for player in state.players)
        for colour in range(len(TOKEN_COUNTS))
    ]
    if tuple(totals) != TOKEN_COUNTS:
        raise MalformedJSON("the tokens on the board, in the bag and in hand must add up to 25")
    privileges = [player.privileges for player in state.players]
    if min(privileges) < 0 or sum(privileges) > PRIVILEGES:
        raise MalformedJSON(f"the players hold 0 to {PRIVILEGES} privileges between them")


def _check_cards(state: DuelState) -> None:
    if len(state.decks) != len(LEVELS) or len(state.pyramid) != len(LEVELS):
        raise MalformedJSON("a state has three decks and three pyramid rows")
    places: list[int] = []
    gaps = 0
    for level, deck, row in zip(LEVELS, state.decks, state.pyramid, strict=True):
        if len(row) != PYRAMID_WIDTHS[level]:
            raise MalformedJSON(f"the level {level} row has {PYRAMID_WIDTHS[level]} slots")
        if deck:
            gaps += row.count(None)
        for card in (*deck, *(card for card in row if card is not None)):
            if check_card(card).level != level:
                raise MalformedJSON(f"card {card} is not a level {level} card")
            places.append(card)
    if gaps > (1 if state.phase in _MID_TURN_PHASES else 0):
        raise MalformedJSON("a pyramid slot is empty while its deck has cards")
    for player in state.players:
        places.extend(player.cards)
        places.extend(player.reserved)
    if sorted(places) != list(range(len(CARDS))):
        raise MalformedJSON("every card must be in exactly one place")
    royals = [*state.royals, *(royal for player in state.players for royal in player.royals)]
    if sorted(royals) != list(range(len(ROYALS))):
        raise MalformedJSON("every royal card must be in exactly one place")


def _check_players(state: DuelState) -> None:
    for seat, player in enumerate(state.players):
        if len(player.reserved) > RESERVE_LIMIT or len(set(player.reserved)) != len(
            player.reserved
        ):
            raise MalformedJSON(f"a player holds at most {RESERVE_LIMIT} different reserved cards")
        if len(set(player.blind)) != len(player.blind) or not set(player.blind) <= set(
            player.reserved
        ):
            raise MalformedJSON("a blind reserve must be one of the player's reserved cards")
        earlier: set[int] = set()
        for index, (card, colour) in enumerate(zip(player.cards, player.card_colours, strict=True)):
            _check_card_colour(state, seat, index, card, colour, earlier)
            earlier.add(colour)
        due = sum(1 for threshold in CROWN_THRESHOLDS if player.crowns >= threshold)
        if seat == state.current and state.royal_due:
            due -= 1
        if len(player.royals) != due:
            raise MalformedJSON("a player has one royal card per crown threshold reached")
        acting = seat == state.current and state.phase != GAME_OVER
        if sum(player.tokens) > TOKEN_LIMIT and not acting:
            raise MalformedJSON(f"only the player to act may hold more than {TOKEN_LIMIT} tokens")


def _check_card_colour(
    state: DuelState, seat: int, index: int, card: int, colour: int, earlier: set[int]
) -> None:
    own = CARDS[card].colour
    if own != JOKER:
        if colour != own:
            raise MalformedJSON(f"card {card} counts as its own colour only")
        return
    if colour == JOKER:
        player = state.players[seat]
        is_pending = (
            state.phase == CHOOSE_JOKER_COLOUR
            and seat == state.current
            and index == len(player.cards) - 1
        )
        if not is_pending:
            raise MalformedJSON("only a joker being placed may be without a colour")
        return
    if colour not in GEM_COLOURS or colour not in earlier:
        raise MalformedJSON(f"joker card {card} must join a colour of a card bought before it")


def _check_phase(state: DuelState) -> None:
    """The phase must be one the rules could be in, so that the game can always go on."""
    player = state.players[state.current]
    opponent = state.players[1 - state.current]
    if has_won(opponent) or (state.phase in _TURN_START_PHASES and has_won(player)):
        raise MalformedJSON("a player who met a victory condition has already won")
    if state.phase == GAME_OVER and not has_won(player) and state.passes < 2:
        raise MalformedJSON("a game is over once a player wins or both pass in a row")
    in_purchase = state.phase in PURCHASE_PHASES
    if in_purchase != (state.pending_card is not None):
        raise MalformedJSON("a pending card exists exactly while a purchase is being resolved")
    if state.pending_card is not None and (
        not player.cards or player.cards[-1] != state.pending_card
    ):
        raise MalformedJSON("the pending card is the card the player to act bought last")
    if state.royal_due and not in_purchase:
        raise MalformedJSON("a royal card is due only while a purchase is being resolved")
    if state.phase == DISCARD_TOKENS and sum(player.tokens) <= TOKEN_LIMIT:
        raise MalformedJSON(f"discarding needs more than {TOKEN_LIMIT} tokens in hand")
    if state.phase == CHOOSE_JOKER_COLOUR and not joker_colours(player):
        raise MalformedJSON("a joker needs a bonus colour to join")
    if state.phase == TAKE_MATCHING_TOKEN and (
        state.pending_card is None
        or CARDS[state.pending_card].ability != TAKE_TOKEN
        or not spaces_of(state.board, player.card_colours[-1])
    ):
        raise MalformedJSON("taking a matching token needs a Gem card and a token of its colour")
    if state.phase == STEAL_TOKEN and not stealable_colours(opponent):
        raise MalformedJSON("taking a token from the opponent needs one to take")
    if state.phase == CHOOSE_ROYAL and not (state.royal_due and state.royals):
        raise MalformedJSON("a royal card is chosen only when one is due")


def check_card(card: int) -> Any:
    if not 0 <= card < len(CARDS):
        raise MalformedJSON(f"there is no card {card}")
    return CARDS[card]
