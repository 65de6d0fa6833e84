"""Determinisation: full engine states that agree with everything one seat can see.

A bot receives only ``view(state, seat)`` (design.md, "Hidden information"). To look ahead it
needs a whole :class:`GameState`, so it deals the cards it cannot see at random: the unseen
cards are the 90 minus those face up, purchased, reserved in plain sight, or reserved blind by
the viewer itself. Each other player's blind reserve ("hidden", with its level) gets an unseen
card of that level; the rest of each level is shuffled into that level's deck, whose size the
view gives. Everything the view shows is kept exactly.

The view does not carry ``passes_this_round`` (every pass is public, but the view omits the
count). A sampled state uses the view's value when present and otherwise assumes that nobody
has passed yet this round; passing is only possible once no other action is, which real games
rarely reach. The viewer's own reserves that came unseen from a deck are marked ``"blind"`` in
its view and stay blind in every sample.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from games.bots.unseen import mark_seen, read_reserves
from games.engine import State
from games.engine.splendor.catalogue import CARD_IDS_BY_LEVEL, CARDS, LEVELS, NOBLES
from games.engine.splendor.gems import GEM_COLOURS, tokens_from_json
from games.engine.splendor.state import GameState, PlayerState


class _Hand(NamedTuple):
    """A player as the view shows them; ``hidden_levels[i]`` is non-zero for a blind reserve."""

    tokens: tuple[int, ...]
    cards: tuple[int, ...]
    reserved: tuple[int, ...]
    hidden_levels: tuple[int, ...]
    known_blind: frozenset[int]
    """The viewer's own blind reserves: seen by the viewer, hidden from everyone else."""
    nobles: tuple[int, ...]
    bonuses: tuple[int, ...]
    points: int

    def deal(self, pools: list[list[int]]) -> PlayerState:
        """The player with each hidden reserve replaced by a card from its level's pool."""
        if not any(self.hidden_levels):
            known = tuple(card for card in self.reserved if card in self.known_blind)
            return self.player(self.reserved, known)
        reserved: list[int] = []
        blind: list[int] = []
        for card, level in zip(self.reserved, self.hidden_levels, strict=True):
            if level:
                card = pools[level - 1].pop()
                blind.append(card)
            elif card in self.known_blind:
                blind.append(card)
            reserved.append(card)
        return self.player(tuple(reserved), tuple(blind))

    def player(self, reserved: tuple[int, ...], blind: tuple[int, ...]) -> PlayerState:
        return PlayerState(
            tokens=self.tokens,
            cards=self.cards,
            reserved=reserved,
            blind=blind,
            nobles=self.nobles,
            bonuses=self.bonuses,
            points=self.points,
        )


class Determinizer:
    """Everything fixed by a view, parsed once; :meth:`sample` deals the unseen cards.

    Search samples thousands of states from one view, so the view is read here once and a
    sample only shuffles the unseen cards and slots them in.
    """

    def __init__(self, view: Mapping[str, Any]) -> None:
        if not isinstance(view, Mapping) or view.get("variant") != "splendor":
            raise TypeError("a Splendor view dict, as returned by games.engine.view, is needed")
        viewer = view["viewer"]
        seen: set[int] = set()
        self._board = tuple(
            tuple(None if slot is None else mark_seen(slot, seen) for slot in row)
            for row in view["board"]
        )
        hands = [
            _hand_of(player, seen, is_viewer=seat == viewer)
            for seat, player in enumerate(view["players"])
        ]
        pools = _unseen_pools(view["decks"], seen, hands)
        self._hands = tuple(hands)
        self._pools = tuple(pools)
        self._supply = tokens_from_json(view["supply"])
        self._nobles = tuple(int(noble["id"]) for noble in view["nobles"])
        self._current = int(view["current"])
        self._phase = str(view["phase"])
        self._turn = int(view["turn"])
        self._passes = int(view.get("passes_this_round", 0))
        self._pending = tuple(int(noble["id"]) for noble in view["pending_nobles"])
        self._has_hidden = any(any(hand.hidden_levels) for hand in hands)
        self._players = tuple(hand.deal([]) for hand in hands) if not self._has_hidden else ()

    def sample(self, rng: random.Random) -> GameState:
        """One state consistent with the view, the unseen cards dealt uniformly at random."""
        pools = [_shuffled(pool, rng) for pool in self._pools]
        players = self._players or tuple(hand.deal(pools) for hand in self._hands)
        return GameState(
            players=players,
            supply=self._supply,
            decks=tuple(tuple(pool) for pool in pools),
            board=self._board,
            nobles=self._nobles,
            current=self._current,
            phase=self._phase,
            turn=self._turn,
            passes_this_round=self._passes,
            pending_nobles=self._pending,
        )


def sample_state(view: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``view``, hidden cards dealt at random from ``rng``.

    For a real state ``s``: ``view(sample_state(view(s, seat), rng), seat) == view(s, seat)``.
    """
    return Determinizer(view).sample(rng)


def _shuffled(pool: tuple[int, ...], rng: random.Random) -> list[int]:
    """The pool in a uniformly random order: each card sorted by a random key.

    The search samples a state per iteration; ``rng.shuffle`` draws each swap through three
    Python calls, while ``rng.random`` is one C call per card."""
    draw = rng.random
    return [card for _, card in sorted([(draw(), card) for card in pool])]


def _hand_of(player: Mapping[str, Any], seen: set[int], *, is_viewer: bool) -> _Hand:
    """One player's part of a view, the cards it shows added to ``seen``."""
    cards = tuple(mark_seen(card, seen) for card in player["cards"])
    reserved, hidden_levels = read_reserves(player["reserved"], seen, is_viewer=is_viewer)
    known_blind = frozenset(int(card["id"]) for card in player["reserved"] if card.get("blind"))
    nobles = tuple(int(noble["id"]) for noble in player["nobles"])
    bonuses = [0] * len(GEM_COLOURS)
    for card in cards:
        bonuses[CARDS[card].colour] += 1
    points = sum(CARDS[card].points for card in cards)
    points += sum(NOBLES[noble].points for noble in nobles)
    return _Hand(
        tokens_from_json(player["tokens"]),
        cards,
        tuple(reserved),
        tuple(hidden_levels),
        known_blind,
        nobles,
        tuple(bonuses),
        points,
    )


def _unseen_pools(
    deck_sizes: list[Any], seen: set[int], hands: list[_Hand]
) -> list[tuple[int, ...]]:
    """Per level, the cards no one sees: the deck and the hidden reserves, checked to add up."""
    pools: list[tuple[int, ...]] = []
    for level, size in zip(LEVELS, deck_sizes, strict=True):
        pool = tuple(card for card in CARD_IDS_BY_LEVEL[level] if card not in seen)
        wanted = int(size) + sum(hand.hidden_levels.count(level) for hand in hands)
        if len(pool) != wanted:
            raise ValueError(
                f"the view leaves {len(pool)} level {level} card(s) unseen, "
                f"but its deck and hidden reserves hold {wanted}"
            )
        pools.append(pool)
    return pools
