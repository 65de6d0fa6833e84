"""Random playouts at full speed: a game played on, in place, on one mutable copy of its state.

Bots' rollouts and benchmarks play whole games of chosen-at-random actions. Step by step, each
step lists its options as action values and builds a new immutable state; here one mutable copy
(a table, ``playout_table.py``) is changed in place, the options of a step are counted rather
than built, and only the one picked is decoded and applied. :func:`play` plays exactly the game
of the loop

    while phase != GAME_OVER and not (phase == MAIN and turn >= until_turn):
        options = legal_actions(state)
        state = apply_legal(state, options[pick(len(options))])

the same options in the same order at every step, so the same picks give the same game and the
same final state (``tests/engine/duel/test_playout.py`` plays many seeds both ways). With
``pick`` a seeded ``random.Random``'s ``randrange``, the picks are those of its ``choice``.
"""

from __future__ import annotations

from games.engine.duel.board import EMPTY
from games.engine.duel.legality import CARD_COSTS, COVERED_AT, JOKER_CARDS
from games.engine.duel.playout_discards import pick_discard
from games.engine.duel.playout_lines import BAND, bottom_line_counts, line_counts, nth_line
from games.engine.duel.playout_purchase import Pick, PurchaseTable
from games.engine.duel.playout_table import Hand
from games.engine.duel.state import (
    DISCARD_TOKENS,
    GAME_OVER,
    MAIN,
    MANDATORY,
    RESERVE,
    RESERVE_LIMIT,
    TOKEN_LIMIT,
    DuelState,
)
from games.engine.duel.tokens import GOLD, PEARL, TOKEN_COLOURS
from games.engine.duel.transitions import PEARLS_FOR_PRIVILEGE, SAME_COLOUR_FOR_PRIVILEGE
from games.engine.picks import direct_pick, generator_bits

__all__ = ["Pick", "play"]

_NOT_JOKERS = ~JOKER_CARDS
_EMPTY_BAG = [0] * len(TOKEN_COLOURS)


def play(state: DuelState, pick: Pick, until_turn: int | None = None) -> DuelState:
    """The state where the game ends, or where turn ``until_turn`` starts, each step's action
    being ``legal_actions(state)[pick(count)]``."""
    if state.phase == GAME_OVER or (
        until_turn is not None and state.phase == MAIN and state.turn >= until_turn
    ):
        return state
    table = _Playout(state)
    table.run(direct_pick(pick), until_turn, generator_bits(pick))
    return table.state()


class _Playout(PurchaseTable):
    """A table that plays itself on, step by step, with the options each step offers."""

    __slots__ = ()

    def run(self, pick: Pick, until_turn: int | None, random_bits: Pick | None = None) -> None:
        """Play on to the end of the game, or to the start of turn ``until_turn``.

        ``random_bits``, when given, is the ``getrandbits`` of the generator whose
        ``_randbelow`` ``pick`` is (``setup.generator_bits``): the main decision draws its
        pick from it directly, as ``_randbelow`` would, without a call.

        The turn's main decision (``legality._main_actions``: privileges, replenishing, lines,
        golds, purchases, in that order) is most of a game's steps, so it is unrolled here:
        the options are counted, and only the one picked is decoded.
        """
        last_turn = until_turn if until_turn is not None else -1
        hands = self.hands
        board = self.board
        bag = self.bag
        decks = self.decks
        c_white, c_blue, c_green, c_red, c_black, c_pearl = COVERED_AT
        counts = line_counts()
        bottom_counts = bottom_line_counts()
        while True:
            phase = self.phase
            if phase == MAIN:
                if self.turn == last_turn:
                    return
                optional = True
            elif phase == MANDATORY:
                optional = False
            elif phase == GAME_OVER:
                return
            elif phase == DISCARD_TOKENS:
                self._discard(pick)
                continue
            elif phase == RESERVE:
                self._reserve(pick)
                continue
            else:
                self.purchase_decision(pick, phase)
                continue
            hand = hands[self.current]
            tokens = hand.tokens
            takeable = self.takeable
            # playout_lines.line_count, inlined.
            line_count = (
                counts[takeable & BAND]
                + counts[takeable >> 5 & BAND]
                + bottom_counts[takeable >> 10]
            )
            golds = self.golds
            gold_count = 0
            if (
                golds
                and len(hand.reserved) < RESERVE_LIMIT
                and (self.pyramid_cards or decks[0] or decks[1] or decks[2])
            ):
                gold_count = golds.bit_count()
            # The purchases: legality.covering_masks and _mandatory_actions, unrolled.
            bonuses = hand.bonuses
            white_bonus, blue_bonus, green_bonus, red_bonus, black_bonus, _ = bonuses
            white = white_bonus + tokens[0]
            blue = blue_bonus + tokens[1]
            green = green_bonus + tokens[2]
            red = red_bonus + tokens[3]
            black = black_bonus + tokens[4]
            pearl = tokens[5]
            gold = tokens[6]
            if not gold:
                buys = (
                    c_white[white] & c_blue[blue] & c_green[green] & c_red[red]
                    & c_black[black] & c_pearl[pearl]
                )  # fmt: skip
            elif gold == 1:
                # Within one token of the cost in every colour, and short in at most one of
                # them: the gold covers that one. (Bit-parallel, for every card at once.)
                buys = (
                    c_white[white + 1] & c_blue[blue + 1] & c_green[green + 1]
                    & c_red[red + 1] & c_black[black + 1] & c_pearl[pearl + 1]
                )  # fmt: skip
                short = ~c_white[white]
                lacking = ~c_blue[blue]
                twice = short & lacking
                short |= lacking
                lacking = ~c_green[green]
                twice |= short & lacking
                short |= lacking
                lacking = ~c_red[red]
                twice |= short & lacking
                short |= lacking
                lacking = ~c_black[black]
                twice |= short & lacking
                short |= lacking
                twice |= short & ~c_pearl[pearl]
                buys &= ~twice
            else:
                covered = (
                    c_white[white] & c_blue[blue] & c_green[green] & c_red[red]
                    & c_black[black] & c_pearl[pearl]
                )  # fmt: skip
                buys = (
                    c_white[white + gold] & c_blue[blue + gold] & c_green[green + gold]
                    & c_red[red + gold] & c_black[black + gold] & c_pearl[pearl + gold]
                )  # fmt: skip
            buy_count = 0
            if buys:
                if not (white_bonus or blue_bonus or green_bonus or red_bonus or black_bonus):
                    buys &= _NOT_JOKERS
                buys &= self.pyramid_cards | hand.reserved_mask
                if gold > 1:
                    # Within reach with gold but not without: affordable only if the gold
                    # covers all that the tokens and bonuses lack.
                    # (legality.shortfall, inlined on the powers worked out above.)
                    uncertain = buys & ~covered
                    while uncertain:
                        bit = uncertain & -uncertain
                        uncertain ^= bit
                        (cost_white, cost_blue, cost_green, cost_red, cost_black, cost_pearl) = (
                            CARD_COSTS[bit.bit_length() - 1]
                        )
                        short = (
                            (cost_white - white if cost_white > white else 0)
                            + (cost_blue - blue if cost_blue > blue else 0)
                            + (cost_green - green if cost_green > green else 0)
                            + (cost_red - red if cost_red > red else 0)
                            + (cost_black - black if cost_black > black else 0)
                            + (cost_pearl - pearl if cost_pearl > pearl else 0)
                        )
                        if short > gold:
                            buys ^= bit
                buy_count = buys.bit_count()
            mandatory = line_count + gold_count + buy_count
            if not mandatory:
                pick(1)
                if optional and bag != _EMPTY_BAG:
                    self.replenish()
                else:
                    self.end_turn(passed=True)
                continue
            if optional:
                spendable = takeable.bit_count() if hand.privileges else 0
                has_bag = 0 if bag == _EMPTY_BAG else 1
                count = spendable + has_bag + mandatory
            else:
                spendable = has_bag = 0
                count = mandatory
            if random_bits is None:
                index = pick(count)
            else:
                # random.Random._randbelow, inlined: bits until a number below the count.
                size = count.bit_length()
                index = random_bits(size)
                while index >= count:
                    index = random_bits(size)
            if index < spendable:
                self._use_privilege(hand, _nth_space(takeable, index))
                continue
            index -= spendable
            if has_bag:
                if not index:
                    self.replenish()
                    continue
                index -= 1
            if index < line_count:
                # Taking a line (transitions._take_tokens), inlined: the commonest step.
                spaces = nth_line(takeable, index)
                first = board[spaces[0]]
                alike = True
                pearls = 0
                for space in spaces:
                    colour = board[space]
                    if colour != first:
                        alike = False
                    if colour == PEARL:
                        pearls += 1
                    tokens[colour] += 1
                    board[space] = EMPTY
                    takeable ^= 1 << space
                self.takeable = takeable
                held = hand.token_count = hand.token_count + len(spaces)
                if (alike and len(spaces) == SAME_COLOUR_FOR_PRIVILEGE) or (
                    pearls >= PEARLS_FOR_PRIVILEGE
                ):
                    self.take_privilege(1 - self.current)
                self.passes = 0
                if held > TOKEN_LIMIT:
                    self.phase = DISCARD_TOKENS
                else:
                    self.finish_turn()
            elif index < line_count + gold_count:
                space = _nth_space(golds, index - line_count)
                tokens[GOLD] += 1
                hand.token_count += 1
                board[space] = EMPTY
                self.golds = golds & ~(1 << space)
                self.phase = RESERVE
            else:
                self.buy(hand, _nth_space(buys, index - line_count - gold_count))

    def _use_privilege(self, hand: Hand, space: int) -> None:
        hand.tokens[self.board[space]] += 1
        hand.token_count += 1
        hand.privileges -= 1
        self.board[space] = EMPTY
        self.takeable &= ~(1 << space)

    def _reserve(self, pick: Pick) -> None:
        """After a gold: the pyramid's cards, then the decks with a top card (reserve_actions)."""
        decks = self.decks
        in_pyramid = self.pyramid_cards.bit_count()
        index = pick(in_pyramid + (1 if decks[0] else 0) + (1 if decks[1] else 0)
                     + (1 if decks[2] else 0))  # fmt: skip
        hand = self.hands[self.current]
        if index < in_pyramid:
            card = _nth_card_of_rows(self.pyramid, index)
            self.leave_pyramid(card)
        else:
            card = _nth_top_card(decks, index - in_pyramid)
            hand.blind.append(card)
        hand.reserved.append(card)
        hand.reserved_mask |= 1 << card
        self.end_turn()

    def _discard(self, pick: Pick) -> None:
        hand = self.hands[self.current]
        tokens = hand.tokens
        bag = self.bag
        excess = hand.token_count - TOKEN_LIMIT
        if excess == 1:
            # Most discards put back one token: one option per colour held (pick_discard).
            held = [colour for colour in TOKEN_COLOURS if tokens[colour]]
            colour = held[pick(len(held))]
            tokens[colour] -= 1
            bag[colour] += 1
        else:
            for colour, count in enumerate(pick_discard(tokens, excess, pick)):
                if count:
                    tokens[colour] -= count
                    bag[colour] += count
        hand.token_count = TOKEN_LIMIT
        self.finish_turn()


def _nth_top_card(decks: list[list[int]], index: int) -> int:
    """Taken from the top of the ``index``-th deck that has cards, level by level."""
    for deck in decks:
        if deck:
            if not index:
                return deck.pop(0)
            index -= 1
    raise IndexError("fewer decks with cards")


def _nth_card_of_rows(rows: list[list[int | None]], index: int) -> int:
    """The ``index``-th card of the pyramid, row by row and left to right (empty slots skipped)."""
    for row in rows:
        for card in row:
            if card is not None:
                if not index:
                    return card
                index -= 1
    raise IndexError("fewer cards in the pyramid")


def _nth_space(spaces: int, index: int) -> int:
    """The ``index``-th lowest space (or card) of a mask of spaces (or cards)."""
    for _ in range(index):
        spaces &= spaces - 1
    return (spaces & -spaces).bit_length() - 1
