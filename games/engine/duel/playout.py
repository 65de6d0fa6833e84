"""Random playouts at full speed: a game played on, in place, on one mutable copy of its state.

Bots' rollouts and benchmarks play whole games of chosen-at-random actions. Step by step, each
step lists its options as action values and builds a new immutable state; here one mutable copy
(:class:`_Table`) is changed in place, the options of a step are counted rather than built, and
only the one picked is decoded and applied. :func:`play` plays exactly the game of the loop

    while phase != GAME_OVER and not (phase == MAIN and turn >= until_turn):
        options = legal_actions(state)
        state = apply_legal(state, options[pick(len(options))])

the same options in the same order at every step, so the same picks give the same game and the
same final state (``tests/engine/duel/test_playout.py`` plays many seeds both ways). With
``pick`` a seeded ``random.Random``'s ``randrange``, the picks are those of its ``choice``.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.duel.board import EMPTY, SPACES, draw_order, lay_out
from games.engine.duel.catalogue import (
    CARDS,
    EXTRA_TURN,
    JOKER,
    NONE,
    PRIVILEGE,
    PRIVILEGES,
    ROYALS,
    STEAL,
    TAKE_TOKEN,
)
from games.engine.duel.legality import (
    COVERED_AT,
    JOKER_CARDS,
    discard_actions,
    lines_within,
    payment_for,
    shortfall,
)
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    CROWN_THRESHOLDS,
    DISCARD_TOKENS,
    GAME_OVER,
    MAIN,
    MANDATORY,
    RESERVE,
    RESERVE_LIMIT,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
    TOKEN_LIMIT,
    WINNING_COLOUR_POINTS,
    WINNING_CROWNS,
    WINNING_POINTS,
    DuelState,
    PlayerState,
)
from games.engine.duel.tokens import COST_COLOURS, GEM_COLOURS, GOLD, PEARL
from games.engine.duel.transitions import PEARLS_FOR_PRIVILEGE, SAME_COLOUR_FOR_PRIVILEGE
from games.engine.duel.turn_end import PASSES_TO_END

Pick = Callable[[int], int]
"""Given how many options a step has, the index of the one to take (``0 <= index < count``)."""

_LEVEL_INDEX: tuple[int, ...] = tuple(card.level - 1 for card in CARDS)
_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
_BONUS: tuple[int, ...] = tuple(card.bonus for card in CARDS)
_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
_CROWNS: tuple[int, ...] = tuple(card.crowns for card in CARDS)
_ABILITY: tuple[str, ...] = tuple(card.ability for card in CARDS)
_FIRST_ROYAL_AT, _SECOND_ROYAL_AT = CROWN_THRESHOLDS
_NOT_JOKERS = ~JOKER_CARDS


def play(state: DuelState, pick: Pick, until_turn: int | None = None) -> DuelState:
    """The state where the game ends, or where turn ``until_turn`` starts, each step's action
    being ``legal_actions(state)[pick(count)]``."""
    if state.phase == GAME_OVER or (
        until_turn is not None and state.phase == MAIN and state.turn >= until_turn
    ):
        return state
    table = _Table(state)
    table.run(pick, until_turn)
    return table.state()


class _Hand:
    """A :class:`PlayerState` whose fields can change in place (lists for its tuples)."""

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
        "royals",
        "tokens",
    )

    def __init__(self, player: PlayerState) -> None:
        self.tokens = list(player.tokens)
        self.privileges = player.privileges
        self.cards = list(player.cards)
        self.card_colours = list(player.card_colours)
        self.reserved = list(player.reserved)
        self.blind = list(player.blind)
        self.royals = list(player.royals)
        self.bonuses = list(player.bonuses)
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
            tuple(self.bonuses),
            self.points,
            self.crowns,
            tuple(self.colour_points),
        )


class _Table:
    """A :class:`DuelState` that changes in place, with masks of the board and the pyramid.

    ``takeable`` and ``golds`` are the board's spaces holding a gem or pearl token and a gold
    token; ``pyramid_cards`` the pyramid's cards, as a mask of card ids, and ``pyramid_holes``
    its empty slots whose level's deck has cards: while there are none, the end of a turn has
    nothing to refill.
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
        "passes",
        "pending_card",
        "phase",
        "pyramid",
        "pyramid_cards",
        "pyramid_holes",
        "replenishments",
        "royal_due",
        "royals",
        "takeable",
        "turn",
    )

    def __init__(self, state: DuelState) -> None:
        self.hands = [_Hand(player) for player in state.players]
        self.board = list(state.board)
        self._mask_board()
        self.bag = list(state.bag)
        self.bag_draws = state.bag_draws
        self.replenishments = state.replenishments
        self.decks = [list(deck) for deck in state.decks]
        self.pyramid = [list(row) for row in state.pyramid]
        self.pyramid_cards = sum(
            1 << card for row in state.pyramid for card in row if card is not None
        )
        self.pyramid_holes = sum(
            row.count(None) for row, deck in zip(state.pyramid, state.decks, strict=True) if deck
        )
        self.royals = list(state.royals)
        self.current = state.current
        self.phase = state.phase
        self.turn = state.turn
        self.extra_turn = state.extra_turn
        self.pending_card = state.pending_card
        self.royal_due = state.royal_due
        self.passes = state.passes

    def state(self) -> DuelState:
        return DuelState(
            tuple(hand.player() for hand in self.hands),
            tuple(self.board),
            tuple(self.bag),
            self.bag_draws,
            self.replenishments,
            tuple(tuple(deck) for deck in self.decks),
            tuple(tuple(row) for row in self.pyramid),
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

    def run(self, pick: Pick, until_turn: int | None) -> None:
        """Play on to the end of the game, or to the start of turn ``until_turn``.

        The turn's main decision (``legality._main_actions``: privileges, replenishing, lines,
        golds, purchases, in that order) is most of a game's steps, so it is unrolled here:
        the options are counted, and only the one picked is decoded.
        """
        last_turn = until_turn if until_turn is not None else -1
        hands = self.hands
        c_white, c_blue, c_green, c_red, c_black, c_pearl = COVERED_AT
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
            else:
                self._decision(pick, phase)
                continue
            hand = hands[self.current]
            tokens = hand.tokens
            takeable = self.takeable
            lines = lines_within(takeable)
            line_count = len(lines)
            golds = self.golds
            gold_count = 0
            if golds and len(hand.reserved) < RESERVE_LIMIT and self._has_card_to_reserve():
                gold_count = golds.bit_count()
            # The purchases: legality.covering_masks and _mandatory_actions, unrolled.
            bonuses = hand.bonuses
            white_bonus, blue_bonus, green_bonus, red_bonus, black_bonus = bonuses
            white = white_bonus + tokens[0]
            blue = blue_bonus + tokens[1]
            green = green_bonus + tokens[2]
            red = red_bonus + tokens[3]
            black = black_bonus + tokens[4]
            pearl = tokens[5]
            gold = tokens[6]
            covered = (
                c_white[white] & c_blue[blue] & c_green[green] & c_red[red] & c_black[black]
                & c_pearl[pearl]
            )  # fmt: skip
            if gold:
                buys = (
                    c_white[white + gold] & c_blue[blue + gold] & c_green[green + gold]
                    & c_red[red + gold] & c_black[black + gold] & c_pearl[pearl + gold]
                )  # fmt: skip
            else:
                buys = covered
            buy_count = 0
            if buys:
                if not (white_bonus or blue_bonus or green_bonus or red_bonus or black_bonus):
                    covered &= _NOT_JOKERS
                    buys &= _NOT_JOKERS
                within_reach = self.pyramid_cards
                for card in hand.reserved:
                    within_reach |= 1 << card
                buys &= within_reach
                uncertain = buys & ~covered
                while uncertain:
                    bit = uncertain & -uncertain
                    uncertain ^= bit
                    if shortfall(tokens, bonuses, bit.bit_length() - 1) > gold:
                        buys ^= bit
                buy_count = buys.bit_count()
            mandatory = line_count + gold_count + buy_count
            if not mandatory:
                pick(1)
                if optional and any(self.bag):
                    self._replenish()
                else:
                    self._end_turn(passed=True)
                continue
            if optional:
                spendable = takeable.bit_count() if hand.privileges else 0
                has_bag = 1 if any(self.bag) else 0
                index = pick(spendable + has_bag + mandatory)
                if index < spendable:
                    self._use_privilege(hand, _nth_space(takeable, index))
                    continue
                index -= spendable
                if has_bag:
                    if not index:
                        self._replenish()
                        continue
                    index -= 1
            else:
                index = pick(mandatory)
            if index < line_count:
                self._take_tokens(hand, lines[index].spaces)
            elif index < line_count + gold_count:
                space = _nth_space(golds, index - line_count)
                tokens[GOLD] += 1
                self.board[space] = EMPTY
                self.golds = golds & ~(1 << space)
                self.phase = RESERVE
            else:
                self._buy(hand, _nth_space(buys, index - line_count - gold_count))

    def _decision(self, pick: Pick, phase: str) -> None:
        """Any decision but the turn's main one: a discard, a reserve, or after a purchase."""
        if phase == DISCARD_TOKENS:
            self._discard(pick)
        elif phase == RESERVE:
            self._reserve(pick)
        else:
            self._purchase_decision(pick, phase)

    def _has_card_to_reserve(self) -> bool:
        decks = self.decks
        return bool(self.pyramid_cards or decks[0] or decks[1] or decks[2])

    def _use_privilege(self, hand: _Hand, space: int) -> None:
        hand.tokens[self.board[space]] += 1
        hand.privileges -= 1
        self.board[space] = EMPTY
        self.takeable &= ~(1 << space)

    def _replenish(self) -> None:
        order = self.bag_draws[self.replenishments % len(self.bag_draws)]
        self._take_privilege(1 - self.current)
        self.board = list(lay_out(tuple(self.board), draw_order(tuple(self.bag), order)))
        self._mask_board()
        self.bag = [0] * len(self.bag)
        self.replenishments += 1
        self.phase = MANDATORY

    def _take_tokens(self, hand: _Hand, spaces: tuple[int, ...]) -> None:
        board = self.board
        tokens = hand.tokens
        takeable = self.takeable
        colours = []
        for space in spaces:
            colour = board[space]
            colours.append(colour)
            tokens[colour] += 1
            board[space] = EMPTY
            takeable ^= 1 << space
        self.takeable = takeable
        if len(colours) > 1 and (
            (len(colours) == SAME_COLOUR_FOR_PRIVILEGE and len(set(colours)) == 1)
            or colours.count(PEARL) >= PEARLS_FOR_PRIVILEGE
        ):
            self._take_privilege(1 - self.current)
        self.passes = 0
        if sum(tokens) > TOKEN_LIMIT:
            self.phase = DISCARD_TOKENS
        else:
            self._finish_turn()

    def _reserve(self, pick: Pick) -> None:
        """After a gold: the pyramid's cards, then the decks with a top card (reserve_actions)."""
        cards = [card for row in self.pyramid for card in row if card is not None]
        levels = [index for index, deck in enumerate(self.decks) if deck]
        index = pick(len(cards) + len(levels))
        hand = self.hands[self.current]
        if index < len(cards):
            card = cards[index]
            self._leave_pyramid(card)
        else:
            card = self.decks[levels[index - len(cards)]].pop(0)
            hand.blind.append(card)
        hand.reserved.append(card)
        self._end_turn()

    # A purchase and what follows it (purchase.py) ---------------------------------------------

    def _buy(self, hand: _Hand, card: int) -> None:
        tokens = hand.tokens
        bag = self.bag
        payment = payment_for(tokens, hand.bonuses, card)
        for colour, paid in enumerate(payment):
            if paid:
                tokens[colour] -= paid
                bag[colour] += paid
        if card in hand.reserved:
            hand.reserved.remove(card)
            if card in hand.blind:
                hand.blind.remove(card)
        else:
            self._leave_pyramid(card)
        colour = _COLOUR[card]
        if colour == JOKER:
            options = _joker_colours(hand)
            if len(options) == 1:
                colour = options[0]
        crowns_before = hand.crowns
        hand.cards.append(card)
        hand.card_colours.append(colour)
        if colour >= 0:
            hand.bonuses[colour] += _BONUS[card]
            hand.colour_points[colour] += _POINTS[card]
        hand.points += _POINTS[card]
        crowns = hand.crowns = crowns_before + _CROWNS[card]
        royal_due = (crowns_before < _FIRST_ROYAL_AT <= crowns) or (
            crowns_before < _SECOND_ROYAL_AT <= crowns
        )
        if _ABILITY[card] == NONE and not royal_due and colour != JOKER:
            self._end_turn()
            return
        self.pending_card = card
        self.royal_due = royal_due
        if colour == JOKER:
            self.phase = CHOOSE_JOKER_COLOUR
            return
        self._resolve_ability()

    def _purchase_decision(self, pick: Pick, phase: str) -> None:
        hand = self.hands[self.current]
        if phase == CHOOSE_JOKER_COLOUR:
            options = _joker_colours(hand)
            colour = options[pick(len(options))]
            card = hand.cards[-1]
            hand.card_colours[-1] = colour
            hand.bonuses[colour] += _BONUS[card]
            hand.colour_points[colour] += _POINTS[card]
            self._resolve_ability()
        elif phase == TAKE_MATCHING_TOKEN:
            spaces = self._spaces_of(hand.card_colours[-1])
            self._take_from_board(hand, spaces[pick(len(spaces))])
            self._resolve_royal()
        elif phase == STEAL_TOKEN:
            colours = self._stealable()
            self._steal(colours[pick(len(colours))])
            self._resolve_royal()
        elif phase == CHOOSE_ROYAL:
            self._gain_royal(self.royals[pick(len(self.royals))])
        else:
            raise ValueError(f"unknown phase {phase!r}")

    def _resolve_ability(self) -> None:
        card = self.pending_card
        ability = _ABILITY[card if card is not None else -1]
        if ability == EXTRA_TURN:
            self.extra_turn = True
        elif ability == PRIVILEGE:
            self._take_privilege(self.current)
        elif ability == TAKE_TOKEN:
            hand = self.hands[self.current]
            spaces = self._spaces_of(hand.card_colours[-1])
            if len(spaces) > 1:
                self.phase = TAKE_MATCHING_TOKEN
                return
            if spaces:
                self._take_from_board(hand, spaces[0])
        elif ability == STEAL:
            self._start_steal()
            return
        self._resolve_royal()

    def _resolve_royal(self) -> None:
        if not self.royal_due:
            self._end_turn()
        elif len(self.royals) > 1:
            self.phase = CHOOSE_ROYAL
        else:
            self._gain_royal(self.royals[0])

    def _gain_royal(self, royal: int) -> None:
        hand = self.hands[self.current]
        hand.royals.append(royal)
        hand.points += ROYALS[royal].points
        self.royals.remove(royal)
        self.royal_due = False
        ability = ROYALS[royal].ability
        if ability == EXTRA_TURN:
            self.extra_turn = True
        elif ability == PRIVILEGE:
            self._take_privilege(self.current)
        elif ability == STEAL:
            self._start_steal()
            return
        self._end_turn()

    def _start_steal(self) -> None:
        colours = self._stealable()
        if len(colours) > 1:
            self.phase = STEAL_TOKEN
            return
        if colours:
            self._steal(colours[0])
        self._resolve_royal()

    def _stealable(self) -> list[int]:
        held = self.hands[1 - self.current].tokens
        return [colour for colour in COST_COLOURS if held[colour]]

    def _steal(self, colour: int) -> None:
        self.hands[self.current].tokens[colour] += 1
        self.hands[1 - self.current].tokens[colour] -= 1

    def _spaces_of(self, colour: int) -> list[int]:
        board = self.board
        return [space for space in range(SPACES) if board[space] == colour]

    def _take_from_board(self, hand: _Hand, space: int) -> None:
        hand.tokens[self.board[space]] += 1
        self.board[space] = EMPTY
        self.takeable &= ~(1 << space)
        self.golds &= ~(1 << space)

    def _take_privilege(self, seat: int) -> None:
        """``players.take_privilege``: from the table, else from the opponent."""
        taker = self.hands[seat]
        if taker.privileges >= PRIVILEGES:
            return
        opponent = self.hands[1 - seat]
        if taker.privileges + opponent.privileges >= PRIVILEGES:
            opponent.privileges -= 1
        taker.privileges += 1

    # The end of the turn (turn_end.py) --------------------------------------------------------

    def _leave_pyramid(self, card: int) -> None:
        level = _LEVEL_INDEX[card]
        row = self.pyramid[level]
        row[row.index(card)] = None
        self.pyramid_cards &= ~(1 << card)
        if self.decks[level]:
            self.pyramid_holes += 1

    def _refill_pyramid(self) -> None:
        """``turn_end.refill_pyramid``: each empty slot gets its level's top card, if any."""
        for row, deck in zip(self.pyramid, self.decks, strict=True):
            for slot, card in enumerate(row):
                if card is None and deck:
                    dealt = deck.pop(0)
                    row[slot] = dealt
                    self.pyramid_cards |= 1 << dealt
        self.pyramid_holes = 0

    def _discard(self, pick: Pick) -> None:
        hand = self.hands[self.current]
        options = discard_actions(tuple(hand.tokens))
        discarded = options[pick(len(options))].tokens
        tokens = hand.tokens
        bag = self.bag
        for colour, count in enumerate(discarded):
            if count:
                tokens[colour] -= count
                bag[colour] += count
        self._finish_turn()

    def _end_turn(self, *, passed: bool = False) -> None:
        self.passes = self.passes + 1 if passed else 0
        if sum(self.hands[self.current].tokens) > TOKEN_LIMIT:
            self.phase = DISCARD_TOKENS
            self.pending_card = None
            self.royal_due = False
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        self.turn += 1
        self.pending_card = None
        self.royal_due = False
        hand = self.hands[self.current]
        if (
            hand.points >= WINNING_POINTS
            or hand.crowns >= WINNING_CROWNS
            or max(hand.colour_points) >= WINNING_COLOUR_POINTS
            or self.passes >= PASSES_TO_END
        ):
            self.phase = GAME_OVER
            self.extra_turn = False
            return
        if self.pyramid_holes:
            self._refill_pyramid()
        if not self.extra_turn:
            self.current = 1 - self.current
        self.extra_turn = False
        self.phase = MAIN


def _joker_colours(hand: _Hand) -> list[int]:
    bonuses = hand.bonuses
    return [colour for colour in GEM_COLOURS if bonuses[colour]]


def _nth_space(spaces: int, index: int) -> int:
    """The ``index``-th lowest space (or card) of a mask of spaces (or cards)."""
    for _ in range(index):
        spaces &= spaces - 1
    return (spaces & -spaces).bit_length() - 1
