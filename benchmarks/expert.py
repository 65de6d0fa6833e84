"""The Expert's price: one position's judgement, and the search's iterations per second.

For each game, over positions taken from games between greedy bots (every fifth decision,
each judged from its mover's side):
- the judgement of one position: the hand-set evaluation against the value network (the
  encoding of the position's seats and the network's pass, apart and together), in µs;
- iterations per second of the search bot and of the Expert (the same search judged by the
  network, with its shorter playouts) at a fixed number of iterations per move (base game), or
  samples per second (Duel: each sample plays every candidate a few turns ahead).

All figures are CPU time of this process, so other load does not move them much.

    python benchmarks/expert.py
    python benchmarks/expert.py --variant duel --positions 100
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.engine as engine
from games.bots import expert, search
from games.bots import features as base_features
from games.bots.duel import expert as duel_expert
from games.bots.duel import features as duel_features
from games.bots.duel import search as duel_search
from games.bots.duel.evaluation import position_value
from games.bots.evaluation import position_scores
from games.bots.learning.network import ValueNetwork, installed
from games.variants import GAMES, choose_bot_action


def sample_positions(variant: str, count: int, seed: int) -> list[Any]:
    """States met in greedy games, every fifth decision, until ``count`` are gathered."""
    positions: list[Any] = []
    game = 0
    while len(positions) < count:
        state = engine.initial_state(engine.new_game(variant, 2, seed + game))
        decision = 0
        while engine.outcome(state) is None and len(positions) < count:
            if decision % 5 == 0:
                positions.append(state)
            action = choose_bot_action("greedy", engine.view(state, state.current), seed=decision)
            state = engine.apply_action(state, action)
            decision += 1
        game += 1
    return positions


def per_call(function: Callable[[Any], object], positions: list[Any], repeat: int) -> float:
    """CPU µs per call of ``function`` over ``positions``."""
    started = time.thread_time()
    for _ in range(repeat):
        for position in positions:
            function(position)
    return (time.thread_time() - started) / (repeat * len(positions)) * 1e6


def rate(
    choose: Callable[[dict[str, Any], random.Random], object], views: list[Any], work: int
) -> float:
    """Units of search work per CPU second, ``work`` units a move."""
    started = time.thread_time()
    for index, view in enumerate(views):
        choose(view, random.Random(index))
    return work * len(views) / (time.thread_time() - started)


Judge = Callable[[Any], object]


def judgements(variant: str, network: ValueNetwork) -> tuple[Judge, Judge, Judge]:
    """The game's encoding of a position, its hand-set evaluation and its learned one, each
    from the mover's side."""
    if variant == "splendor":

        def encode(state: Any) -> object:
            return base_features.seat_rows(state, state.current)

        def learned(state: Any) -> object:
            return network.chances(base_features.seat_rows(state, state.current))

        return encode, position_scores, learned

    def encode_duel(state: Any) -> object:
        return duel_features.seat_rows(state, state.current)

    def hand_duel(state: Any) -> object:
        return position_value(state, state.current)

    def learned_duel(state: Any) -> object:
        return duel_expert.learned_value(network, state, state.current, state.current)

    return encode_duel, hand_duel, learned_duel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("splendor", "duel"), default="splendor")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20_261_127)
    args = parser.parse_args()
    positions = sample_positions(args.variant, args.positions, args.seed)
    views = [engine.view(state, state.current) for state in positions]
    views = [
        view
        for view, state in zip(views, positions, strict=True)
        if len(engine.legal_actions(state)) > 1
    ]
    network: ValueNetwork = installed(GAMES[args.variant].expert.network)
    print(f"{args.variant}: {len(positions)} positions, network {network.metadata.get('run', '?')}")
    encode, hand, learned = judgements(args.variant, network)
    rows = [encode(state) for state in positions]
    print(f"  hand-set evaluation        {per_call(hand, positions, 5):8.1f} µs a position")
    print(f"  features (every seat)      {per_call(encode, positions, 5):8.1f} µs")
    print(f"  network pass               {per_call(network.chances, rows, 5):8.1f} µs")
    print(f"  learned evaluation, whole  {per_call(learned, positions, 5):8.1f} µs")
    moves = views[:40]
    # The base game's search counts tree iterations; the Duel's, samples of its lookahead.
    searcher, learner, work, unit = (
        (search.choose, expert.choose, 200, "search iterations/s")
        if args.variant == "splendor"
        else (duel_search.choose, duel_expert.choose, 2, "lookahead samples/s")
    )
    before = rate(lambda view, rng: searcher(view, rng, iterations=work), moves, work)
    after = rate(
        lambda view, rng: learner(view, rng, network=network, iterations=work), moves, work
    )
    print(f"  {unit}: search {before:,.1f}, Expert {after:,.1f} ({len(moves)} moves)")


if __name__ == "__main__":
    main()
