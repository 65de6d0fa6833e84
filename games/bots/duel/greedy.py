"""The Duel greedy bot: one decision of lookahead, the rest of its own turn played greedily.

Each legal action is applied to a determinised state; while the same player still has
decisions to make in the same turn (privileges before a mandatory action, a reserve after a
gold, a joker's colour, a royal, a discard), they are settled the same way, one level deep,
and the result is scored by ``games.bots.duel.evaluation``. Ties are broken by the seeded rng.

A take that ends the turn over ten tokens and whose best discard leaves the bot no nearer to a
purchase is a wasted take (``games.bots.progress``), and so is a privilege spent at the limit
that brings no card nearer; a line of the turn whose best continuation is one (a Replenish
followed by nothing but wasted takes) is wasted too. Wasted lines rank below every other
action, so the bot plays one only when nothing else is legal.
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
from games.bots.duel.progress import nearest_purchase
from games.bots.progress import wasted_last
from games.engine import Action, apply_legal, legal_actions
from games.engine.duel.actions import TakeTokens, UsePrivilege
from games.engine.duel.state import (
    DISCARD_TOKENS,
    GAME_OVER,
    MAIN,
    TOKEN_LIMIT,
    DuelState,
    PlayerState,
)

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
    """Each action with its score, in the order given; wasted takes score lowest."""
    seat = state.current
    if state.phase == DISCARD_TOKENS:
        return list(zip(discard_values(state, actions, seat), actions, strict=True))
    return wasted_last(rank_with_waste(state, actions))


def rank_with_waste(state: DuelState, actions: list[Action]) -> list[tuple[float, Action, bool]]:
    """Each action with its score and whether its line is a wasted take, in the order given
    (a discard is never one: the take it follows was judged when it was chosen)."""
    seat = state.current
    if state.phase == DISCARD_TOKENS:
        values = discard_values(state, actions, seat)
        return [(value, action, False) for value, action in zip(values, actions, strict=True)]
    progress = _Progress(state, seat)
    ranked = []
    for action in actions:
        value, wasted = _line(state, action, seat, state.turn, SETTLE_DEPTH, progress)
        ranked.append((value, action, wasted))
    return ranked


class _Progress:
    """The mover's hand at the decision, against which the hands its lines keep are judged."""

    __slots__ = ("bonuses", "in_sight", "nearest", "tokens")

    def __init__(self, state: DuelState, seat: int) -> None:
        player = state.players[seat]
        self.tokens = player.tokens
        self.bonuses = player.bonuses
        self.in_sight = [card for row in state.pyramid for card in row if card is not None]
        self.in_sight.extend(player.reserved)
        self.nearest: int | None = None

    def no_nearer(self, tokens: tuple[int, ...]) -> bool:
        """Whether a hand of ``tokens`` lacks as much for its nearest purchase as at the start."""
        if self.nearest is None:
            self.nearest = nearest_purchase(self.tokens, self.bonuses, self.in_sight)
        return nearest_purchase(tokens, self.bonuses, self.in_sight) >= self.nearest


def _line(
    state: DuelState, action: Action, seat: int, turn: int, depth: int, progress: _Progress
) -> tuple[float, bool]:
    """The seat's value after ``action`` and the best rest of its turn, and whether that line
    is a wasted take."""
    after = _apply(state, action)
    if (
        depth
        and type(action) is TakeTokens
        and after.phase == DISCARD_TOKENS
        and after.current == seat
        and after.turn == turn
    ):
        discards = legal_actions(after)
        values = discard_values(after, discards, seat)
        best = max(range(len(values)), key=values.__getitem__)
        kept = tuple(map(sub, after.players[seat].tokens, discards[best].tokens))  # type: ignore[union-attr]
        return values[best], progress.no_nearer(kept)
    value, wasted = _settled(after, seat, turn, depth, progress)
    if type(action) is UsePrivilege and not wasted:
        tokens = after.players[seat].tokens
        wasted = sum(tokens) > TOKEN_LIMIT and progress.no_nearer(tokens)
    return value, wasted


def _settled(
    state: DuelState, seat: int, turn: int, depth: int, progress: _Progress
) -> tuple[float, bool]:
    """The seat's value once its own pending decisions this turn are made as well as can be
    (a line that is no wasted take before one that is), and whether that line is wasted."""
    if depth and state.current == seat and state.turn == turn and state.phase != GAME_OVER:
        options = legal_actions(state)
        if len(options) > 12 and state.phase == MAIN:
            # Still at the turn's start after spending a privilege: judge the position as is.
            return position_value(state, seat), False
        if state.phase == DISCARD_TOKENS:
            return max(discard_values(state, options, seat)), False
        lines = [_line(state, action, seat, turn, depth - 1, progress) for action in options]
        progressing = [value for value, wasted in lines if not wasted]
        if progressing:
            return max(progressing), False
        return max(value for value, _ in lines), True
    return position_value(state, seat), False


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
