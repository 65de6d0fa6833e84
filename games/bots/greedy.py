"""The greedy bot: one move of lookahead, scored by the static evaluation.

Each legal action is applied to a determinised state and the result scored as the mover's value
minus a share of the best opponent's value (``games.bots.evaluation``), so points, nobles, useful
bonuses, tokens toward affordable cards and denying an opponent's card all count. The decisions
an action calls for are looked at too: an action that goes over ten tokens is scored with its
best return, and a noble's visit with the best choice. Ties are broken by the seeded rng.

A take that goes over ten tokens and whose best return leaves the bot no nearer to a purchase
is a wasted take (``games.bots.progress``): it ranks below every other action, so the bot plays
it only when nothing else is legal.

Only cards the bot can see count: the cards a purchase or reservation would reveal from a deck
are unknown, so prospects are scored on the face-up cards of the position it was given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots.determinize import sample_state
from games.bots.evaluation import DEFAULT_WEIGHTS, Weights, player_value
from games.bots.progress import nearest_purchase, wasted_last
from games.engine import Action, State, apply_legal, legal_actions
from games.engine.splendor.actions import BuyCard, ReserveCard, TakeGems
from games.engine.splendor.state import CHOOSE_NOBLE, RETURN_TOKENS, TOKEN_LIMIT


def choose(view: Mapping[str, Any], rng: random.Random) -> Action:
    """The greedy bot's action for the seat to act in ``view`` (its own view)."""
    return best_action(sample_state(view, rng), rng)


def best_action(state: State, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> Action:
    """The legal action whose outcome the evaluation likes best, ties broken by ``rng``."""
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    scored = rank_actions(state, actions, weights)
    best = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score >= best - 1e-9])


def rank_actions(
    state: State, actions: list[Action], weights: Weights = DEFAULT_WEIGHTS
) -> list[tuple[float, Action]]:
    """Each action with its one-move score, in the order given; wasted takes score lowest."""
    return wasted_last(rank_with_waste(state, actions, weights))


def rank_with_waste(
    state: State, actions: list[Action], weights: Weights = DEFAULT_WEIGHTS
) -> list[tuple[float, Action, bool]]:
    """Each action with its one-move score and whether it is a wasted take, in the order given."""
    seat = state.current
    board = tuple(card for row in state.board for card in row if card is not None)
    player = state.players[seat]
    in_sight = board + player.reserved
    held = sum(player.tokens)
    nearest = None
    scored = []
    for action in actions:
        seen = board
        if isinstance(action, BuyCard | ReserveCard) and action.card in board:
            seen = tuple(card for card in board if card != action.card)
        after = apply_legal(state, action)
        own, settled = _settled(after, seat, seen, weights)
        others = [
            player_value(after, other, weights, seen)
            for other in range(len(state.players))
            if other != seat
        ]
        wasted = False
        if isinstance(action, TakeGems) and held + len(action.gems) > TOKEN_LIMIT:
            if nearest is None:
                nearest = nearest_purchase(player.tokens, player.bonuses, in_sight)
            kept = settled.players[seat].tokens
            wasted = nearest_purchase(kept, player.bonuses, in_sight) >= nearest
        scored.append((own - weights.opponent * max(others), action, wasted))
    return scored


def _settled(
    state: State, seat: int, board: tuple[int, ...], weights: Weights
) -> tuple[float, State]:
    """The seat's value once its pending returns and noble choice are made as well as can be,
    and the position they lead to (the first best, when several are as good)."""
    if state.current == seat and state.phase in (RETURN_TOKENS, CHOOSE_NOBLE):
        best: tuple[float, State] | None = None
        for action in legal_actions(state):
            outcome = _settled(apply_legal(state, action), seat, board, weights)
            if best is None or outcome[0] > best[0]:
                best = outcome
        assert best is not None
        return best
    return player_value(state, seat, weights, board), state
