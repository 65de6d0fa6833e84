"""The Duel greedy bot: one decision of lookahead, the rest of its own turn played greedily.

Each legal action is applied to a determinised state; while the same player still has
decisions to make in the same turn (privileges before a mandatory action, a reserve after a
gold, a joker's colour, a royal, a discard), they are settled the same way, one level deep,
and the result is scored by ``games.bots.duel.evaluation``. Ties are broken by the seeded rng.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import sub
from typing import Any

from games.bots.duel.determinize import DuelDeterminizer
from games.bots.duel.evaluation import (
    OPPONENT_WEIGHT,
    player_value,
    position_value,
    scored_player,
)
from games.engine import Action, apply_legal, legal_actions
from games.engine.duel.state import DISCARD_TOKENS, GAME_OVER, DuelState, PlayerState

SETTLE_DEPTH = 3
"""Decisions of the same turn looked through after the first: privileges, reserve, discards."""


def choose(view: Mapping[str, Any], rng: random.Random) -> Action:
    return best_action(DuelDeterminizer(view).sample(rng), rng)


def best_action(state: DuelState, rng: random.Random) -> Action:
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    scored = rank_actions(state, actions)
    best = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score >= best - 1e-9])


def rank_actions(state: DuelState, actions: list[Action]) -> list[tuple[float, Action]]:
    seat = state.current
    if state.phase == DISCARD_TOKENS:
        return list(zip(discard_values(state, actions, seat), actions, strict=True))
    return [
        (settled_value(_apply(state, action), seat, state.turn, SETTLE_DEPTH), action)
        for action in actions
    ]


def settled_value(state: DuelState, seat: int, turn: int, depth: int) -> float:
    """The seat's value once its own pending decisions this turn are made as well as can be."""
    if depth and state.current == seat and state.turn == turn and state.phase != "game_over":
        options = legal_actions(state)
        if len(options) > 12 and state.phase == "main":
            # Still at the turn's start after spending a privilege: judge the position as is.
            return position_value(state, seat)
        if state.phase == DISCARD_TOKENS:
            return max(discard_values(state, options, seat))
        return max(
            settled_value(_apply(state, action), seat, turn, depth - 1) for action in options
        )
    return position_value(state, seat)


def discard_values(state: DuelState, discards: list[Action], seat: int) -> list[float]:
    """The seat's value after each discard: what ``settled_value`` gives, without playing each.

    A discard ends the turn, and the discards' next states differ only in the seat's tokens
    (the bag is not scored): one is played, and the others are scored as it with their tokens.
    A hand holding many tokens has dozens of discards, most of a greedy turn's work otherwise.
    """
    after = _apply(state, discards[0])
    if after.phase == GAME_OVER:
        return [position_value(after, seat)] * len(discards)
    held = state.players[seat].tokens
    rest = tuple(after.players[seat])[1:]
    pyramid = after.pyramid
    opponent = OPPONENT_WEIGHT * player_value(after, 1 - seat)
    values = []
    for action in discards:
        kept = tuple(map(sub, held, action.tokens))  # type: ignore[union-attr]
        player = _new_tuple(PlayerState, (kept, *rest))
        values.append(scored_player(pyramid, player) - opponent)
    return values


_new_tuple = tuple.__new__
"""A named tuple's own constructor, without the frame of its generated ``__new__``."""


def _apply(state: DuelState, action: Action) -> DuelState:
    after = apply_legal(state, action)
    assert isinstance(after, DuelState)
    return after
