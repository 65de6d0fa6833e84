"""The playout kernel's table: a :class:`DuelState` copied into fields that change in place.

A playout (``playout.py``) plays a whole game on one :class:`Table` instead of rebuilding an
immutable state at every step. Besides the state's fields the table keeps what the kernel would
otherwise work out again at every step: the board as masks of spaces, the pyramid as a mask of
card ids, each hand's reserved cards as a mask and its token total, and the pyramid's slots to
refill at the end of the turn. Here are the changes the table makes to itself that are not a
player's decision: replenishing the board, privileges passing, the pyramid emptied and refilled,
and the end of the turn (turn_end.py).
"""

from __future__ import annotations

from games.engine.duel.board import EMPTY, SPIRAL_SPACES
from games.engine.duel.catalogue import CARDS, PRIVILEGES
from games.engine.duel.state import (
    DISCARD_TOKENS,
    GAME_OVER,
    MAIN,
    MANDATORY,
    TOKEN_LIMIT,
    WINNING_COLOUR_POINTS,
    WINNING_CROWNS,
    WINNING_POINTS,
    DuelState,
    PlayerState,
)
from games.engine.duel.tokens import GOLD, NO_TOKENS, PEARL
from games.engine.duel.turn_end import PASSES_TO_END

LEVEL_INDEX: tuple[int, ...] = tuple(card.level - 1 for card in CARDS)
"""Each card's pyramid row and deck (0, 1 or 2)."""


class Hand:
    """A :class:`PlayerState` whose fields change in place (lists for its tuples).

    ``bonuses`` has a sixth entry, always 0, for pearl: a card's cost can then be read against
    bonuses colour by colour, pearl included. ``reserved_mask`` is ``reserved`` as a mask of
    card ids and ``token_count`` the sum of ``tokens``.
    """

    __slots__ = (
        "blind",
        "bonuses",
        "card_colours",
        "cards",
        "colour_points",
        "crowns",
        "points",
        "privileges",
        "reserved",
        "reserved_mask",
        "royals",
        "token_count",
        "tokens",
    )

    def __init__(self, player: PlayerState) -> None:
        self.tokens = list(player.tokens)
        self.token_count = sum(player.tokens)
        self.privileges = player.privileges
        self.cards = list(player.cards)
        self.card_colours = list(player.card_colours)
        self.reserved = list(player.reserved)
        reserved_mask = 0
        for card in player.reserved:
            reserved_mask |= 1 << card
        self.reserved_mask = reserved_mask
        self.blind = list(player.blind)
        self.royals = list(player.royals)
        self.bonuses = [*player.bonuses, 0]
        self.points = player.points
        self.crowns = player.crowns
        self.colour_points = list(player.colour_points)

    def player(self) -> PlayerState:
        return PlayerState(
            tuple(self.tokens),
            self.privileges,
            tuple(self.cards),
            tuple(self.card_colours),
            tuple(self.reserved),
            tuple(self.blind),
            tuple(self.royals),
            tuple(self.bonuses[:PEARL]),
            self.points,
            self.crowns,
            tuple(self.colour_points),
        )


class Table:
    """A :class:`DuelState` that changes in place.

    ``takeable`` and ``golds`` are the board's spaces holding a gem or pearl token and a gold
    token; ``pyramid_cards`` the pyramid's cards as a mask of card ids; ``holes`` the pyramid's
    empty slots, as ``(row, slot)``, whose deck still has cards: what the end of the turn refills.
    ``scored`` says the player to act gained points or crowns since the last victory check.
    """

    __slots__ = (
        "bag",
        "bag_draws",
        "board",
        "current",
        "decks",
        "extra_turn",
        "golds",
        "hands",
        "holes",
        "passes",
        "pending_card",
        "phase",
        "pyramid",
        "pyramid_cards",
        "replenishments",
        "royal_due",
        "royals",
        "scored",
        "takeable",
        "turn",
    )

    def __init__(self, state: DuelState) -> None:
        first, second = state.players
        self.hands = [Hand(first), Hand(second)]
        self.board = list(state.board)
        self.takeable = self.golds = 0
        self._mask_board()
        self.bag = list(state.bag)
        self.bag_draws = state.bag_draws
        self.replenishments = state.replenishments
        self.decks = [list(deck) for deck in state.decks]
        self.pyramid = [list(row) for row in state.pyramid]
        pyramid_cards = 0
        for row in state.pyramid:
            for card in row:
                if card is not None:
                    pyramid_cards |= 1 << card
        self.pyramid_cards = pyramid_cards
        self.holes = [
            (level, slot)
            for level, (row, deck) in enumerate(zip(state.pyramid, state.decks, strict=True))
            for slot, card in enumerate(row)
            if card is None and deck
        ]
        self.royals = list(state.royals)
        self.current = state.current
        self.phase = state.phase
        self.turn = state.turn
        self.extra_turn = state.extra_turn
        self.pending_card = state.pending_card
        self.royal_due = state.royal_due
        self.passes = state.passes
        # A state handed over mid-turn may already meet a victory condition.
        self.scored = True

    def state(self) -> DuelState:
        first, second = self.hands
        # One deck and one pyramid row per level, 1 to 3.
        deck_1, deck_2, deck_3 = self.decks
        row_1, row_2, row_3 = self.pyramid
        return DuelState(
            (first.player(), second.player()),
            tuple(self.board),
            tuple(self.bag),
            self.bag_draws,
            self.replenishments,
            (tuple(deck_1), tuple(deck_2), tuple(deck_3)),
            (tuple(row_1), tuple(row_2), tuple(row_3)),
            tuple(self.royals),
            self.current,
            self.phase,
            self.turn,
            self.extra_turn,
            self.pending_card,
            self.royal_due,
            self.passes,
        )

    def _mask_board(self) -> None:
        takeable = golds = 0
        for space, token in enumerate(self.board):
            if token == GOLD:
                golds |= 1 << space
            elif token != EMPTY:
                takeable |= 1 << space
        self.takeable = takeable
        self.golds = golds

    # The board and the privileges ---------------------------------------------------------------

    def replenish(self) -> None:
        """``board.lay_out`` of ``board.draw_order``: the bag's tokens, listed in colour order,
        drawn in the recorded order onto the empty spaces along the spiral."""
        bag = self.bag
        listing: list[int] = []
        for colour, count in enumerate(bag):
            if count:
                listing += [colour] * count
        size = len(listing)
        order = self.bag_draws[self.replenishments % len(self.bag_draws)]
        drawn = [listing[index] for index in order if index < size]
        takeable = self.takeable
        golds = self.golds
        board = self.board
        occupied = takeable | golds
        laid = 0
        # The bag never holds more tokens than the board has empty spaces: the last may stay
        # empty.
        for space in SPIRAL_SPACES:
            if laid == size:
                break
            if not occupied >> space & 1:
                token = board[space] = drawn[laid]
                laid += 1
                if token == GOLD:
                    golds |= 1 << space
                else:
                    takeable |= 1 << space
        self.takeable = takeable
        self.golds = golds
        self.take_privilege(1 - self.current)
        bag[:] = NO_TOKENS
        self.replenishments += 1
        self.phase = MANDATORY

    def take_from_board(self, hand: Hand, space: int) -> None:
        hand.tokens[self.board[space]] += 1
        hand.token_count += 1
        self.board[space] = EMPTY
        self.takeable &= ~(1 << space)
        self.golds &= ~(1 << space)

    def take_privilege(self, seat: int) -> None:
        """``players.take_privilege``: from the table, else from the opponent."""
        taker = self.hands[seat]
        if taker.privileges >= PRIVILEGES:
            return
        opponent = self.hands[1 - seat]
        if taker.privileges + opponent.privileges >= PRIVILEGES:
            opponent.privileges -= 1
        taker.privileges += 1

    # The pyramid and the end of the turn (turn_end.py) -----------------------------------------

    def leave_pyramid(self, card: int) -> None:
        level = LEVEL_INDEX[card]
        row = self.pyramid[level]
        slot = row.index(card)
        row[slot] = None
        self.pyramid_cards &= ~(1 << card)
        if self.decks[level]:
            self.holes.append((level, slot))

    def end_turn(self, *, passed: bool = False) -> None:
        self.passes = self.passes + 1 if passed else 0
        if self.hands[self.current].token_count > TOKEN_LIMIT:
            self.phase = DISCARD_TOKENS
            self.pending_card = None
            self.royal_due = False
            return
        self.finish_turn()

    def finish_turn(self) -> None:
        """``turn_end.finish_turn``: check victory, refill the pyramid, pass play on."""
        self.turn += 1
        self.pending_card = None
        self.royal_due = False
        if self.scored:
            self.scored = False
            hand = self.hands[self.current]
            if (
                hand.points >= WINNING_POINTS
                or hand.crowns >= WINNING_CROWNS
                or max(hand.colour_points) >= WINNING_COLOUR_POINTS
            ):
                self.phase = GAME_OVER
                self.extra_turn = False
                return
        if self.passes >= PASSES_TO_END:
            self.phase = GAME_OVER
            self.extra_turn = False
            return
        holes = self.holes
        if holes:
            if len(holes) == 1:
                # A turn takes at most one card from the pyramid: the usual refill.
                level, slot = holes.pop()
                deck = self.decks[level]
                if deck:
                    dealt = deck.pop(0)
                    self.pyramid[level][slot] = dealt
                    self.pyramid_cards |= 1 << dealt
            else:
                self._refill_pyramid(holes)
        if self.extra_turn:
            self.extra_turn = False
        else:
            self.current = 1 - self.current
        self.phase = MAIN

    def _refill_pyramid(self, holes: list[tuple[int, int]]) -> None:
        """``turn_end.refill_pyramid``: each empty slot, row by row and left to right, gets its
        level's top card while the deck lasts."""
        holes.sort()
        decks = self.decks
        pyramid = self.pyramid
        for level, slot in holes:
            deck = decks[level]
            if deck:
                dealt = deck.pop(0)
                pyramid[level][slot] = dealt
                self.pyramid_cards |= 1 << dealt
        holes.clear()
