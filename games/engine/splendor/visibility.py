"""What one viewer may see of a game: the redacted dict every page, response, email and bot reads.

Hidden from everyone: the order and contents of the decks. Hidden from all but their owner: the
cards a player reserved unseen from a deck (the others see only the level they came from). A card
reserved from the board was seen by all when it was taken, so it stays visible.
"""

from __future__ import annotations

from typing import Any

from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.gems import COLOUR_NAMES, tokens_to_json
from games.engine.splendor.scoring import Outcome, outcome
from games.engine.splendor.state import RETURN_TOKENS, TOKEN_LIMIT, GameState, PlayerState


def view(state: GameState, viewer: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """The game as seen from seat ``viewer`` (``None``: a spectator, who sees no hand).

    With ``reveal`` every reserved card is shown, for a game that is over.
    """
    result = outcome(state)
    acting = state.players[state.current]
    return {
        "variant": "splendor",
        "viewer": viewer,
        "phase": state.phase,
        "current": state.current,
        "turn": state.turn,
        "round": state.turn // len(state.players),
        "passes_this_round": state.passes_this_round,
        "supply": tokens_to_json(state.supply),
        "decks": [len(deck) for deck in state.decks],
        "board": [
            [None if card is None else card_json(card) for card in row] for row in state.board
        ],
        "nobles": [noble_json(noble) for noble in state.nobles],
        "players": [
            _player_json(player, seat, reveal or seat == viewer)
            for seat, player in enumerate(state.players)
        ],
        "pending_nobles": [noble_json(noble) for noble in state.pending_nobles],
        "tokens_to_return": (
            sum(acting.tokens) - TOKEN_LIMIT if state.phase == RETURN_TOKENS else 0
        ),
        "outcome": None if result is None else _outcome_json(result),
    }


def _outcome_json(result: Outcome) -> dict[str, Any]:
    return {
        "points": list(result.points),
        "cards_bought": list(result.cards_bought),
        "winners": list(result.winners),
        "decided_by": result.decided_by,
        "ended_by": result.ended_by,
    }


def card_json(card: int) -> dict[str, Any]:
    data = CARDS[card]
    return {
        "id": data.id,
        "level": data.level,
        "colour": COLOUR_NAMES[data.colour],
        "points": data.points,
        "cost": tokens_to_json(data.cost),
    }


def noble_json(noble: int) -> dict[str, Any]:
    data = NOBLES[noble]
    return {"id": data.id, "points": data.points, "requires": tokens_to_json(data.requires)}


def _reserved_json(card: int, is_blind: bool, sees_hand: bool) -> dict[str, Any]:
    """A reserved card: hidden from others when it came unseen from a deck."""
    if not is_blind:
        return card_json(card)
    if not sees_hand:
        return {"hidden": True, "level": CARDS[card].level}
    return {**card_json(card), "blind": True}


def _player_json(player: PlayerState, seat: int, sees_hand: bool) -> dict[str, Any]:
    reserved = [_reserved_json(card, card in player.blind, sees_hand) for card in player.reserved]
    return {
        "seat": seat,
        "tokens": tokens_to_json(player.tokens),
        "token_count": sum(player.tokens),
        "bonuses": tokens_to_json(player.bonuses),
        "points": player.points,
        "cards": [card_json(card) for card in player.cards],
        "reserved": reserved,
        "nobles": [noble_json(noble) for noble in player.nobles],
    }
