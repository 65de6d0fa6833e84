"""Random playouts at full speed: a base game played on, in place, on one mutable copy of its state.

Step by step, each step of a playout lists its options as action values (``legal_actions``) and
builds a new immutable state (``apply_legal``). Here the state is unpacked once into lists that
are changed in place, a step's options are counted rather than built, and only the one picked
is decoded and applied. :func:`play` plays exactly the game of the loop

    while phase != GAME_OVER and not (phase == MAIN and turn >= until_turn):
        options = legal_actions(state)
        state = apply_legal(state, options[pick(len(options))])

with the same options in the same order at every step (the takes the supply allows, the
reservations of the face-up cards in the board's order then of the decks, the affordable face-up
cards, the affordable reserved cards; a pass when there is nothing else), so the same picks give
the same game and the same final state (``tests/engine/test_playout.py`` plays many seeds both
ways). With ``pick`` a seeded ``random.Random``'s ``randrange``, the picks are its ``choice``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.picks import direct_pick
from games.engine.splendor.affordability import (
    GOLD_BIAS,
    SHORTFALL_BLACK,
    SHORTFALL_BLUE,
    SHORTFALL_GREEN,
    SHORTFALL_RED,
    SHORTFALL_WHITE,
    TOP_BIT,
    affordable_by_sums,
)
from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.legality import (
    SUPPLY_KEY_BITS,
    TAKES_BY_SUPPLY_KEY,
    return_actions,
    supply_key,
)
from games.engine.splendor.state import (
    CHOOSE_NOBLE,
    GAME_OVER,
    MAIN,
    RESERVE_LIMIT,
    RETURN_TOKENS,
    TOKEN_LIMIT,
    WINNING_POINTS,
    GameState,
    PlayerState,
)
from games.engine.splendor.turn_end import FEWEST_CARDS_FOR_A_NOBLE, NOBLE_POINTS, NOBLES_MET

Pick = Callable[[int], int]

_TAKE_COUNTS_BY_SUPPLY_KEY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(take.gems.count(colour) for colour in range(5)) for take in takes)
    for takes in TAKES_BY_SUPPLY_KEY
)
"""Per supply key, the tokens of each gem colour each take adds, in the takes' order."""
_CARD_COSTS: tuple[tuple[int, ...], ...] = tuple(card.cost for card in CARDS)
_CARD_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
_CARD_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
_CARD_LEVEL_INDEX: tuple[int, ...] = tuple(card.level - 1 for card in CARDS)
_NEVER = 1 << 62
"""The turn a playout without ``until_turn`` stops at: none."""


def play(state: GameState, pick: Pick, until_turn: int | None = None) -> GameState:
    """The state where the game ends, or where turn ``until_turn`` starts, each step's action
    being ``legal_actions(state)[pick(count)]``."""
    last_turn = _NEVER if until_turn is None else until_turn
    if state.phase == GAME_OVER or (state.phase == MAIN and state.turn >= last_turn):
        return state
    return _Playout(state).run(direct_pick(pick), last_turn)


class _Hand:
    """A player's part of the state, as lists changed in place."""

    __slots__ = ("blind", "bonuses", "cards", "points", "reserved", "tokens", "won")

    def __init__(self, player: PlayerState) -> None:
        self.tokens = list(player.tokens)
        self.cards = list(player.cards)
        self.reserved = list(player.reserved)
        self.blind = list(player.blind)
        self.won = list(player.nobles)
        self.bonuses = list(player.bonuses)
        self.points = player.points

    def state(self) -> PlayerState:
        return PlayerState(
            tuple(self.tokens), tuple(self.cards), tuple(self.reserved), tuple(self.blind),
            tuple(self.won), tuple(self.bonuses), self.points,
        )  # fmt: skip


class _Playout:
    """One game's state as lists, played on by :meth:`run` and read back by :meth:`state`."""

    __slots__ = (
        "board", "current", "decks", "nobles", "passes", "pending", "phase", "players", "supply",
        "turn",
    )  # fmt: skip

    def __init__(self, state: GameState) -> None:
        self.players = [_Hand(player) for player in state.players]
        self.supply = list(state.supply)
        # Top last, so that a draw is a ``pop``.
        self.decks = [list(reversed(deck)) for deck in state.decks]
        self.board = [list(row) for row in state.board]
        self.nobles = list(state.nobles)
        self.current = state.current
        self.phase = state.phase
        self.turn = state.turn
        self.passes = state.passes_this_round
        self.pending = state.pending_nobles

    def state(self) -> GameState:
        return GameState(
            tuple(hand.state() for hand in self.players),
            tuple(self.supply),
            tuple(tuple(reversed(deck)) for deck in self.decks),
            tuple(tuple(row) for row in self.board),
            tuple(self.nobles),
            self.current,
            self.phase,
            self.turn,
            self.passes,
            self.pending,
        )  # fmt: skip

    def run(self, pick: Pick, last_turn: int) -> GameState:
        """Play on to the end of the game or to the start of turn ``last_turn``."""
        players = self.players
        supply = self.supply
        decks = self.decks
        board = self.board
        nobles = self.nobles
        seat, phase, turn, passes, pending = (
            self.current, self.phase, self.turn, self.passes, self.pending
        )  # fmt: skip
        seats = len(players)
        key_white, key_blue, key_green, key_red, key_black = SUPPLY_KEY_BITS
        met_white, met_blue, met_green, met_red, met_black = NOBLES_MET
        # Kept as the board changes: the face-up cards' top bits, how many, the decks not empty.
        tops = 0
        face_up = 0
        for row in board:
            for slot in row:
                if slot is not None:
                    tops |= TOP_BIT[slot]
                    face_up += 1
        decks_left = sum(1 for deck in decks if deck)
        while True:
            player = players[seat]
            tokens = player.tokens
            visit = True
            if phase == MAIN:
                if turn >= last_turn:
                    break
                try:
                    key = (
                        key_white[supply[0]] | key_blue[supply[1]] | key_green[supply[2]]
                        | key_red[supply[3]] | key_black[supply[4]]
                    )  # fmt: skip
                except IndexError:  # a supply beyond the tables (a hand-built position)
                    key = supply_key(tuple(supply))
                takes = _TAKE_COUNTS_BY_SUPPLY_KEY[key]
                bonuses = player.bonuses
                try:
                    affordable = (
                        GOLD_BIAS[tokens[5]]
                        - SHORTFALL_WHITE[bonuses[0] + tokens[0]]
                        - SHORTFALL_BLUE[bonuses[1] + tokens[1]]
                        - SHORTFALL_GREEN[bonuses[2] + tokens[2]]
                        - SHORTFALL_RED[bonuses[3] + tokens[3]]
                        - SHORTFALL_BLACK[bonuses[4] + tokens[4]]
                    )
                except IndexError:  # a hand beyond the tables (a hand-built position)
                    affordable = affordable_by_sums(tuple(tokens), tuple(bonuses))
                reserved = player.reserved
                reserves = face_up + decks_left if len(reserved) < RESERVE_LIMIT else 0
                board_buys = (affordable & tops).bit_count()
                reserved_buys = 0
                for card in reserved:
                    if affordable & TOP_BIT[card]:
                        reserved_buys += 1
                count = len(takes) + reserves + board_buys + reserved_buys
                if not count:
                    pick(1)  # the one option, a pass, is picked all the same
                    passes += 1
                else:
                    index = pick(count)
                    if index < len(takes):
                        add_white, add_blue, add_green, add_red, add_black = takes[index]
                        tokens[0] += add_white
                        tokens[1] += add_blue
                        tokens[2] += add_green
                        tokens[3] += add_red
                        tokens[4] += add_black
                        supply[0] -= add_white
                        supply[1] -= add_blue
                        supply[2] -= add_green
                        supply[3] -= add_red
                        supply[4] -= add_black
                        if sum(tokens) > TOKEN_LIMIT:
                            phase = RETURN_TOKENS
                            continue
                    elif index < len(takes) + reserves:
                        index -= len(takes)
                        if index < face_up:
                            card = self._nth_face_up(index, 0)
                            tops, face_up, decks_left = self._replace_on_board(
                                card, tops, face_up, decks_left
                            )
                        else:
                            index -= face_up
                            for deck in decks:
                                if deck:
                                    if not index:
                                        break
                                    index -= 1
                            card = deck.pop()
                            if not deck:
                                decks_left -= 1
                            player.blind.append(card)
                        reserved.append(card)
                        if supply[5]:
                            supply[5] -= 1
                            tokens[5] += 1
                        if sum(tokens) > TOKEN_LIMIT:
                            phase = RETURN_TOKENS
                            continue
                    else:
                        index -= len(takes) + reserves
                        if index < board_buys:
                            card = self._nth_face_up(index, affordable)
                            tops, face_up, decks_left = self._replace_on_board(
                                card, tops, face_up, decks_left
                            )
                        else:
                            index -= board_buys
                            for card in reserved:
                                if affordable & TOP_BIT[card]:
                                    if not index:
                                        break
                                    index -= 1
                            reserved.remove(card)
                            if card in player.blind:
                                player.blind.remove(card)
                        _pay(tokens, bonuses, supply, _CARD_COSTS[card])
                        bonuses[_CARD_COLOUR[card]] += 1
                        player.cards.append(card)
                        player.points += _CARD_POINTS[card]
            elif phase == RETURN_TOKENS:
                options = return_actions(tuple(tokens))
                returned = options[pick(len(options))].tokens
                for colour in range(6):
                    tokens[colour] -= returned[colour]
                    supply[colour] += returned[colour]
                phase = MAIN
            elif phase == CHOOSE_NOBLE:
                noble = pending[pick(len(pending))]
                player.won.append(noble)
                player.points += NOBLE_POINTS[noble]
                nobles.remove(noble)
                phase, pending, visit = MAIN, (), False
            else:
                break
            if visit and len(player.cards) >= FEWEST_CARDS_FOR_A_NOBLE:
                bonus_white, bonus_blue, bonus_green, bonus_red, bonus_black = player.bonuses
                met = (
                    met_white[bonus_white] & met_blue[bonus_blue] & met_green[bonus_green]
                    & met_red[bonus_red] & met_black[bonus_black]
                )  # fmt: skip
                if met:
                    qualifying = [noble for noble in nobles if met >> noble & 1]
                    if len(qualifying) > 1:
                        phase, pending = CHOOSE_NOBLE, tuple(qualifying)
                        continue
                    if qualifying:
                        noble = qualifying[0]
                        player.won.append(noble)
                        player.points += NOBLE_POINTS[noble]
                        nobles.remove(noble)
            turn += 1
            seat += 1
            if seat == seats:
                if passes == seats or max([other.points for other in players]) >= WINNING_POINTS:
                    seat -= 1
                    phase = GAME_OVER
                    break
                seat = passes = 0
        self.current, self.phase, self.turn, self.passes, self.pending = (
            seat, phase, turn, passes, pending
        )  # fmt: skip
        return self.state()

    def _nth_face_up(self, index: int, affordable: int) -> int:
        """The face-up card at ``index`` in the board's order, counting only the affordable ones
        when ``affordable`` (packed as ``affordability`` packs it) is given."""
        for row in self.board:
            for slot in row:
                if slot is not None and (not affordable or affordable & TOP_BIT[slot]):
                    if not index:
                        return slot
                    index -= 1
        raise AssertionError("no such face-up card")  # pragma: no cover

    def _replace_on_board(
        self, card: int, tops: int, face_up: int, decks_left: int
    ) -> tuple[int, int, int]:
        """Fill the card's slot from the top of its level's deck (empty when the deck is), and
        return the face-up cards' top bits, their count and the decks not empty, updated."""
        level = _CARD_LEVEL_INDEX[card]
        row = self.board[level]
        deck = self.decks[level]
        slot = row.index(card)
        tops ^= TOP_BIT[card]
        if deck:
            top = deck.pop()
            row[slot] = top
            tops |= TOP_BIT[top]
            if not deck:
                decks_left -= 1
        else:
            row[slot] = None
            face_up -= 1
        return tops, face_up, decks_left


def _pay(tokens: list[int], bonuses: list[int], supply: list[int], cost: tuple[int, ...]) -> None:
    """Pay for a card the engine's default way: coloured tokens first, gold for the rest."""
    for colour in range(5):
        due = cost[colour] - bonuses[colour]
        if due > 0:
            held = tokens[colour]
            if due > held:
                tokens[5] -= due - held
                supply[5] += due - held
                due = held
            tokens[colour] -= due
            supply[colour] += due
