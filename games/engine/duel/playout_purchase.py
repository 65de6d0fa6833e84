"""The playout kernel's purchases: paying for a card, and what its purchase brings (purchase.py).

A card's ability, a joker's colour, a token to take or to steal and a royal follow a purchase in
the order ``purchase.py`` resolves them; a decision among several options waits in its phase for
the next step's pick, and a decision with one option is taken at once, as the step-by-step engine
does.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.duel.board import SPACES
from games.engine.duel.catalogue import (
    CARDS,
    EXTRA_TURN,
    JOKER,
    NONE,
    PRIVILEGE,
    ROYALS,
    STEAL,
    TAKE_TOKEN,
)
from games.engine.duel.playout_table import Hand, Table
from games.engine.duel.state import (
    CHOOSE_JOKER_COLOUR,
    CHOOSE_ROYAL,
    CROWN_THRESHOLDS,
    STEAL_TOKEN,
    TAKE_MATCHING_TOKEN,
)
from games.engine.duel.tokens import COST_COLOURS, GEM_COLOURS, GOLD

Pick = Callable[[int], int]
"""Given how many options a step has, the index of the one to take (``0 <= index < count``)."""

_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
_BONUS: tuple[int, ...] = tuple(card.bonus for card in CARDS)
_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
_CROWNS: tuple[int, ...] = tuple(card.crowns for card in CARDS)
_ABILITY: tuple[str, ...] = tuple(card.ability for card in CARDS)
_PRICE: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((colour, amount) for colour, amount in enumerate(card.cost) if amount) for card in CARDS
)
"""Each card's cost as ``(colour, amount)`` for the colours (and pearl) it costs at all."""
_PLAIN: tuple[bool, ...] = tuple(
    card.ability == NONE and not card.crowns and card.colour != JOKER for card in CARDS
)
"""The cards whose purchase brings nothing but the card: most of them."""
_FIRST_ROYAL_AT, _SECOND_ROYAL_AT = CROWN_THRESHOLDS


class PurchaseTable(Table):
    """A table that can carry out a purchase and the decisions that follow it."""

    __slots__ = ()

    def buy(self, hand: Hand, card: int) -> None:
        """Pay with ``legality.payment_for`` (tokens first, gold for the rest), take the card."""
        tokens = hand.tokens
        bonuses = hand.bonuses
        bag = self.bag
        paid = gold = 0
        for colour, amount in _PRICE[card]:
            due = amount - bonuses[colour]
            if due > 0:
                held = tokens[colour]
                if due > held:
                    gold += due - held
                    due = held
                tokens[colour] -= due
                bag[colour] += due
                paid += due
        if gold:
            tokens[GOLD] -= gold
            bag[GOLD] += gold
        hand.token_count -= paid + gold
        if self.pyramid_cards >> card & 1:
            self.leave_pyramid(card)
        else:
            hand.reserved.remove(card)
            hand.reserved_mask ^= 1 << card
            if card in hand.blind:
                hand.blind.remove(card)
        colour = _COLOUR[card]
        points = _POINTS[card]
        hand.cards.append(card)
        hand.points += points
        self.scored = True
        if _PLAIN[card]:
            # No ability, no crown, not a joker: nothing follows but the end of the turn.
            hand.card_colours.append(colour)
            if colour >= 0:
                bonuses[colour] += _BONUS[card]
                hand.colour_points[colour] += points
            self.end_turn()
            return
        if colour == JOKER:
            options = joker_colours(hand)
            if len(options) == 1:
                colour = options[0]
        hand.card_colours.append(colour)
        if colour >= 0:
            bonuses[colour] += _BONUS[card]
            hand.colour_points[colour] += points
        crowns_before = hand.crowns
        crowns = hand.crowns = crowns_before + _CROWNS[card]
        royal_due = (crowns_before < _FIRST_ROYAL_AT <= crowns) or (
            crowns_before < _SECOND_ROYAL_AT <= crowns
        )
        if _ABILITY[card] == NONE and not royal_due and colour != JOKER:
            self.end_turn()
            return
        self.pending_card = card
        self.royal_due = royal_due
        if colour == JOKER:
            self.phase = CHOOSE_JOKER_COLOUR
            return
        self._resolve_ability()

    def purchase_decision(self, pick: Pick, phase: str) -> None:
        hand = self.hands[self.current]
        if phase == CHOOSE_JOKER_COLOUR:
            options = joker_colours(hand)
            colour = options[pick(len(options))]
            card = hand.cards[-1]
            hand.card_colours[-1] = colour
            hand.bonuses[colour] += _BONUS[card]
            hand.colour_points[colour] += _POINTS[card]
            self.scored = True
            self._resolve_ability()
        elif phase == TAKE_MATCHING_TOKEN:
            spaces = self._spaces_of(hand.card_colours[-1])
            self.take_from_board(hand, spaces[pick(len(spaces))])
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
            self.take_privilege(self.current)
        elif ability == TAKE_TOKEN:
            hand = self.hands[self.current]
            spaces = self._spaces_of(hand.card_colours[-1])
            if len(spaces) > 1:
                self.phase = TAKE_MATCHING_TOKEN
                return
            if spaces:
                self.take_from_board(hand, spaces[0])
        elif ability == STEAL:
            self._start_steal()
            return
        self._resolve_royal()

    def _resolve_royal(self) -> None:
        if not self.royal_due:
            self.end_turn()
        elif len(self.royals) > 1:
            self.phase = CHOOSE_ROYAL
        else:
            self._gain_royal(self.royals[0])

    def _gain_royal(self, royal: int) -> None:
        hand = self.hands[self.current]
        hand.royals.append(royal)
        hand.points += ROYALS[royal].points
        self.scored = True
        self.royals.remove(royal)
        self.royal_due = False
        ability = ROYALS[royal].ability
        if ability == EXTRA_TURN:
            self.extra_turn = True
        elif ability == PRIVILEGE:
            self.take_privilege(self.current)
        elif ability == STEAL:
            self._start_steal()
            return
        self.end_turn()

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
        thief = self.hands[self.current]
        victim = self.hands[1 - self.current]
        thief.tokens[colour] += 1
        thief.token_count += 1
        victim.tokens[colour] -= 1
        victim.token_count -= 1

    def _spaces_of(self, colour: int) -> list[int]:
        board = self.board
        return [space for space in range(SPACES) if board[space] == colour]


def joker_colours(hand: Hand) -> list[int]:
    bonuses = hand.bonuses
    return [colour for colour in GEM_COLOURS if bonuses[colour]]
