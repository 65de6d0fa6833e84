"""The state of a game: immutable named tuples, rebuilt (never changed) by each action.

Decks list their cards top first. A board row has four slots, ``None`` where a deck ran dry.
``bonuses`` and ``points`` of a player are kept alongside the cards they are derived from
because every legality check reads them; the JSON form omits them and they are recomputed.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.splendor.gems import Gems, Tokens

MAIN = "main"
"""The player to act chooses one of the four actions (or passes when none is legal)."""
RETURN_TOKENS = "return_tokens"
"""The player holds more than ten tokens and must return the excess."""
CHOOSE_NOBLE = "choose_noble"
"""Several nobles would visit the player: they choose one."""
GAME_OVER = "game_over"

PHASES: tuple[str, ...] = (MAIN, RETURN_TOKENS, CHOOSE_NOBLE, GAME_OVER)

TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
WINNING_POINTS = 15
BOARD_WIDTH = 4


class PlayerState(NamedTuple):
    tokens: Tokens
    cards: tuple[int, ...]
    """Purchased cards, in the order bought."""
    reserved: tuple[int, ...]
    """Reserved cards in hand, in the order reserved."""
    blind: tuple[int, ...]
    """The reserved cards taken unseen from a deck: only their owner may see them."""
    nobles: tuple[int, ...]
    bonuses: Gems
    points: int


class GameState(NamedTuple):
    players: tuple[PlayerState, ...]
    supply: Tokens
    decks: tuple[tuple[int, ...], ...]
    """The undealt cards of levels 1, 2 and 3, top first: hidden from every player."""
    board: tuple[tuple[int | None, ...], ...]
    """The face-up cards of levels 1, 2 and 3, four slots each."""
    nobles: tuple[int, ...]
    """Nobles still on the table."""
    current: int
    """The seat whose decision it is."""
    phase: str
    turn: int
    """Turns completed so far; the round is ``turn // len(players)``."""
    passes_this_round: int
    pending_nobles: tuple[int, ...]
    """The nobles to choose from while the phase is ``choose_noble``."""


class Setup(NamedTuple):
    """Everything random about a game, drawn once from the seed and recorded.

    Private while the game runs: it holds the seed and the order of every deck.
    """

    players: int
    seed: int
    decks: tuple[tuple[int, ...], ...]
    """Each level's whole deck, shuffled, top first; the first four go to the board."""
    nobles: tuple[int, ...]
    """The nobles drawn for this game (players + 1)."""
    position: GameState | None = None
    """A game begun from a position (a fork, see ``fork.py``) starts from this state, whose
    decks were shuffled from ``seed``; ``decks`` then repeats the position's decks."""
