"""What one viewer may see of a Duel game: the redacted dict every page, response and bot reads.

Hidden from everyone while the game runs: the order of the decks and the bag's recorded draw
orders (a view gives only how many cards each deck holds and which tokens are in the bag, which
anyone could count). Hidden from all but their owner: the cards reserved from a deck's top (the
opponent sees their level). A card reserved from the pyramid was seen by both players when it was
taken, so it stays visible (docs/decisions/0043-duel-what-a-view-hides.md).
"""

from __future__ import annotations

from typing import Any

from games.engine.duel.board import EMPTY, SIZE
from games.engine.duel.catalogue import CARDS, JOKER, NO_COLOUR, PRIVILEGES, ROYALS
from games.engine.duel.scoring import Outcome, outcome
from games.engine.duel.state import DISCARD_TOKENS, TOKEN_LIMIT, DuelState, PlayerState
from games.engine.duel.tokens import COLOUR_NAMES, tokens_to_json

VARIANT = "duel"


def view(state: DuelState, viewer: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """The game as seen from seat ``viewer`` (``None``: a spectator, who sees no hidden hand).

    With ``reveal`` every reserved card is shown, for a game that is over.
    """
    result = outcome(state)
    acting = state.players[state.current]
    return {
        "variant": VARIANT,
        "viewer": viewer,
        "phase": state.phase,
        "current": state.current,
        "turn": state.turn,
        "board": board_json(state.board),
        "bag": tokens_to_json(state.bag),
        "decks": [len(deck) for deck in state.decks],
        "pyramid": [
            [None if card is None else card_json(card) for card in row] for row in state.pyramid
        ],
        "royals": [royal_json(royal) for royal in state.royals],
        "privileges": PRIVILEGES - sum(player.privileges for player in state.players),
        "players": [
            _player_json(player, seat, reveal or seat == viewer)
            for seat, player in enumerate(state.players)
        ],
        "extra_turn": state.extra_turn,
        "pending_card": None if state.pending_card is None else card_json(state.pending_card),
        "royal_due": state.royal_due,
        "tokens_to_discard": (
            sum(acting.tokens) - TOKEN_LIMIT if state.phase == DISCARD_TOKENS else 0
        ),
        "passes": state.passes,
        "outcome": None if result is None else outcome_json(result),
    }


def board_json(board: tuple[int, ...]) -> list[list[str | None]]:
    """Five rows of five spaces, top first: a token's colour name, or null when empty."""
    return [
        [None if token == EMPTY else COLOUR_NAMES[token] for token in board[row : row + SIZE]]
        for row in range(0, SIZE * SIZE, SIZE)
    ]


def colour_json(colour: int) -> str | None:
    """A card's colour: a gem colour's name, ``"joker"``, or null for a card without a bonus."""
    if colour == JOKER:
        return "joker"
    if colour == NO_COLOUR:
        return None
    return COLOUR_NAMES[colour]


def card_json(card: int) -> dict[str, Any]:
    data = CARDS[card]
    return {
        "id": data.id,
        "level": data.level,
        "colour": colour_json(data.colour),
        "bonus": data.bonus,
        "points": data.points,
        "crowns": data.crowns,
        "cost": tokens_to_json(data.cost),
        "ability": data.ability,
    }


def royal_json(royal: int) -> dict[str, Any]:
    data = ROYALS[royal]
    return {"id": data.id, "points": data.points, "ability": data.ability}


def outcome_json(result: Outcome) -> dict[str, Any]:
    return {
        "points": list(result.points),
        "cards_bought": list(result.cards_bought),
        "crowns": list(result.crowns),
        "winners": list(result.winners),
        "decided_by": result.decided_by,
        "ended_by": result.ended_by,
    }


def _reserved_json(card: int, is_blind: bool, sees_hand: bool) -> dict[str, Any]:
    if not is_blind:
        return card_json(card)
    if not sees_hand:
        return {"hidden": True, "level": CARDS[card].level}
    return {**card_json(card), "blind": True}


def _player_json(player: PlayerState, seat: int, sees_hand: bool) -> dict[str, Any]:
    return {
        "seat": seat,
        "tokens": tokens_to_json(player.tokens),
        "token_count": sum(player.tokens),
        "privileges": player.privileges,
        "bonuses": tokens_to_json(player.bonuses),
        "points": player.points,
        "crowns": player.crowns,
        "colour_points": tokens_to_json(player.colour_points),
        "cards": [
            {**card_json(card), "placed_as": colour_json(colour)}
            for card, colour in zip(player.cards, player.card_colours, strict=True)
        ],
        "reserved": [
            _reserved_json(card, card in player.blind, sees_hand) for card in player.reserved
        ],
        "royals": [royal_json(royal) for royal in player.royals],
    }
