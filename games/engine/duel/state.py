"""The state of a Splendor Duel game: immutable named tuples, rebuilt (never changed) by actions.

Decks list their cards top first. The pyramid has a row per level (5, 4 and 3 slots for levels
1, 2 and 3), ``None`` in a slot whose deck ran dry, or whose card was taken this turn (the pyramid
is refilled at the end of the turn). A player's ``bonuses``, ``points``, ``crowns`` and
``colour_points`` are kept beside the cards they come from because every check reads them; the
JSON form omits them and they are recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.engine.duel.board import Board
from games.engine.duel.tokens import Gems, Tokens

MAIN = "main"
"""The turn's start: spend privileges, replenish the board, or go on to a mandatory action."""
MANDATORY = "mandatory"
"""The board was replenished: only a mandatory action is left."""
RESERVE = "reserve"
"""A gold token was taken: choose the card to reserve, from the pyramid or a deck's top."""
CHOOSE_JOKER_COLOUR = "choose_joker_colour"
"""A joker ("5-Gem") card was bought: choose which of your bonus colours it joins."""
TAKE_MATCHING_TOKEN = "take_matching_token"
"""A "Gem" card was bought: choose which token of its colour to take from the board."""
STEAL_TOKEN = "steal_token"
"""A "Take" card or royal was gained: choose the colour of the token to take from the opponent."""
CHOOSE_ROYAL = "choose_royal"
"""A third or sixth crown was reached: choose a royal card."""
DISCARD_TOKENS = "discard_tokens"
"""The turn ends with more than ten tokens in hand: choose the excess to put in the bag."""
GAME_OVER = "game_over"

PHASES: tuple[str, ...] = (
    MAIN,
    MANDATORY,
    RESERVE,
    CHOOSE_JOKER_COLOUR,
    TAKE_MATCHING_TOKEN,
    STEAL_TOKEN,
    CHOOSE_ROYAL,
    DISCARD_TOKENS,
    GAME_OVER,
)
PURCHASE_PHASES: tuple[str, ...] = (
    CHOOSE_JOKER_COLOUR,
    TAKE_MATCHING_TOKEN,
    STEAL_TOKEN,
    CHOOSE_ROYAL,
)
"""The decisions that follow a purchase, while its card (``pending_card``) resolves."""

PLAYERS = 2
TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
CROWN_THRESHOLDS: tuple[int, ...] = (3, 6)
"""Reaching the third and the sixth crown each brings a royal card."""
WINNING_POINTS = 20
WINNING_CROWNS = 10
WINNING_COLOUR_POINTS = 10


class PlayerState(NamedTuple):
    tokens: Tokens
    privileges: int
    cards: tuple[int, ...]
    """Purchased cards, in the order bought."""
    card_colours: tuple[int, ...]
    """The colour each purchased card counts as: its own, the one a joker joined, ``NO_COLOUR``
    for a card without a bonus, or ``JOKER`` for a joker whose colour is being chosen."""
    reserved: tuple[int, ...]
    """Reserved cards in hand, in the order reserved."""
    blind: tuple[int, ...]
    """The reserved cards drawn from a deck's top: only their owner may see them."""
    royals: tuple[int, ...]
    bonuses: Gems
    points: int
    """Points of cards and royals."""
    crowns: int
    colour_points: Gems
    """Points of the cards counted in each colour (victory condition 3)."""


class DuelState(NamedTuple):
    players: tuple[PlayerState, ...]
    board: Board
    bag: Tokens
    bag_draws: Sequence[tuple[int, ...]]
    """The setup's recorded draw orders for replenishing: hidden from every player. A tuple, or
    for a game set up in this process a ``bag_draws.DrawOrders`` (read, compared and hashed
    alike), which draws each order from the seed when first read."""
    replenishments: int
    """Times the board was replenished: the next replenishment uses the draw order of that index
    (cycling through ``bag_draws``)."""
    decks: tuple[tuple[int, ...], ...]
    """The undealt cards of levels 1, 2 and 3, top first: hidden from every player."""
    pyramid: tuple[tuple[int | None, ...], ...]
    """The face-up cards of levels 1, 2 and 3 (5, 4 and 3 slots)."""
    royals: tuple[int, ...]
    """The royal cards nobody has taken yet."""
    current: int
    phase: str
    turn: int
    """Turns completed so far (an extra turn counts as a turn)."""
    extra_turn: bool
    """The player to act takes another turn once this one ends."""
    pending_card: int | None
    """The card whose purchase is being resolved, during the purchase phases."""
    royal_due: bool
    """The purchase reached a crown threshold: a royal is still to be chosen this turn."""
    passes: int
    """Consecutive turns passed: two in a row end the game without a winner."""


class Setup(NamedTuple):
    """Everything random about a game, drawn once from the seed and recorded.

    Private while the game runs: it holds the seed, every deck's order and the bag's draw orders.
    """

    seed: int
    first_player: int
    decks: tuple[tuple[int, ...], ...]
    """Each level's whole deck, shuffled, top first; the first cards go to the pyramid."""
    tokens: tuple[int, ...]
    """The 25 tokens in the order they are laid on the board along the spiral."""
    bag_draws: Sequence[tuple[int, ...]]
    """One shuffle of 0 … 24 per replenishment, in order (see ``board.draw_order``): a tuple, or
    a ``bag_draws.DrawOrders`` that draws each when first read."""
    position: DuelState | None = None
    """A game begun from a position (a fork, see ``fork.py``) starts from this state, whose
    unseen cards and draw orders were dealt from ``seed``; ``decks`` and ``bag_draws`` then
    repeat the position's, ``first_player`` is the seat to act and ``tokens`` lists the 25
    tokens in colour order (the position's board and bag say where they are)."""
