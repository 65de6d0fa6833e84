"""Determinisation for Duel: full states that agree with everything one seat can see.

A Duel view hides the decks' order, the bag's draw orders and the cards the opponent reserved
from a deck's top (shown with their level). A sample deals the unseen cards of each level at
random into the opponent's hidden reserves and the decks (whose sizes the view gives) and draws
fresh random orders for the bag. Everything the view shows is kept exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots.unseen import mark_seen, read_reserves
from games.engine.duel.board import EMPTY
from games.engine.duel.catalogue import CARD_IDS_BY_LEVEL, LEVELS
from games.engine.duel.players import derive
from games.engine.duel.state import DuelState, PlayerState
from games.engine.duel.tokens import COLOUR_BY_NAME, tokens_from_json

_JOKER, _NO_COLOUR = -2, -1
_BAG_DRAWS = 8
"""Draw orders sampled per determinisation: a search looks only a few replenishments ahead."""


class DuelDeterminizer:
    """Everything fixed by a Duel view, parsed once; :meth:`sample` deals the unseen cards."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        if not isinstance(view, Mapping) or view.get("variant") != "duel":
            raise TypeError(
                "a Splendor Duel view dict, as returned by games.engine.view, is needed"
            )
        viewer = view["viewer"]
        seen: set[int] = set()
        self._pyramid = tuple(
            tuple(None if slot is None else mark_seen(slot, seen) for slot in row)
            for row in view["pyramid"]
        )
        self._hands = [
            _hand_of(player, seen, is_viewer=seat == viewer)
            for seat, player in enumerate(view["players"])
        ]
        pools = []
        for level, size in zip(LEVELS, view["decks"], strict=True):
            pool = [card for card in CARD_IDS_BY_LEVEL[level] if card not in seen]
            wanted = int(size) + sum(levels.count(level) for _, _, levels, _ in self._hands)
            if len(pool) != wanted:
                raise ValueError(f"the view leaves {len(pool)} level {level} card(s) unseen")
            pools.append(tuple(pool))
        self._pools = tuple(pools)
        self._deck_sizes = tuple(int(size) for size in view["decks"])
        self._board = tuple(
            EMPTY if name is None else COLOUR_BY_NAME[name] for row in view["board"] for name in row
        )
        self._bag = tokens_from_json(view["bag"])
        self._royals = tuple(int(royal["id"]) for royal in view["royals"])
        pending = view["pending_card"]
        self._current = int(view["current"])
        self._phase = str(view["phase"])
        self._turn = int(view["turn"])
        self._extra_turn = bool(view["extra_turn"])
        self._pending_card = None if pending is None else int(pending["id"])
        self._royal_due = bool(view["royal_due"])
        self._passes = int(view["passes"])

    def sample(self, rng: random.Random) -> DuelState:
        pools = [list(pool) for pool in self._pools]
        for pool in pools:
            rng.shuffle(pool)
        players = tuple(self._player(hand, pools) for hand in self._hands)
        decks = tuple(tuple(pool) for pool in pools)
        draws = []
        for _ in range(_BAG_DRAWS):
            order = list(range(25))
            rng.shuffle(order)
            draws.append(tuple(order))
        return DuelState(
            players=players,
            board=self._board,
            bag=self._bag,
            bag_draws=tuple(draws),
            replenishments=0,
            decks=decks,
            pyramid=self._pyramid,
            royals=self._royals,
            current=self._current,
            phase=self._phase,
            turn=self._turn,
            extra_turn=self._extra_turn,
            pending_card=self._pending_card,
            royal_due=self._royal_due,
            passes=self._passes,
        )

    @staticmethod
    def _player(hand: _Hand, pools: list[list[int]]) -> PlayerState:
        player, reserved, hidden_levels, blind = hand
        dealt = list(reserved)
        blind_cards = list(blind)
        for index, level in enumerate(hidden_levels):
            if level:
                card = pools[level - 1].pop()
                dealt[index] = card
                blind_cards.append(card)
        cards = tuple(int(card["id"]) for card in player["cards"])
        colours = tuple(_placed(card["placed_as"]) for card in player["cards"])
        return derive(
            tokens=tokens_from_json(player["tokens"]),
            privileges=int(player["privileges"]),
            cards=cards,
            card_colours=colours,
            reserved=tuple(dealt),
            blind=tuple(card for card in dealt if card in blind_cards),
            royals=tuple(int(royal["id"]) for royal in player["royals"]),
        )


def _placed(name: str | None) -> int:
    if name is None:
        return _NO_COLOUR
    if name == "joker":
        return _JOKER
    return COLOUR_BY_NAME[name]


_Hand = tuple[Mapping[str, Any], list[int], list[int], list[int]]
"""A player's part of a view: the player's JSON, the reserve (``HIDDEN`` where hidden), the level
of each hidden reserve (0 where shown), and the blind reserves the viewer knows."""


def _hand_of(player: Mapping[str, Any], seen: set[int], *, is_viewer: bool) -> _Hand:
    """One player's part of a view, the cards it shows added to ``seen``."""
    reserved, hidden_levels = read_reserves(player["reserved"], seen, is_viewer=is_viewer)
    blind = [int(card["id"]) for card in player["reserved"] if card.get("blind")]
    for card in player["cards"]:
        mark_seen(card, seen)
    return player, reserved, hidden_levels, blind
