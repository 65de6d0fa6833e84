"""Random playouts through the public engine contract: how fast the rules run on one core.

Plays N seeded games of uniformly random legal actions for 2, 3 and 4 players (Splendor Duel:
2) and prints games per second, mean actions per game, and the mean microseconds spent in one
``legal_actions`` and in one ``apply_action`` call. The timings of the two calls are taken in a
separate pass so that the games-per-second figure carries no timer overhead. Each game includes
its ``new_game`` and ``initial_state``.

    python benchmarks/engine_playouts.py [--variant splendor|duel] [--games N] [--players 2 3 4]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (
    VARIANTS,
    apply_action,
    initial_state,
    legal_actions,
    new_game,
    outcome,
    seat_counts,
)


def play_games(variant: str, players: int, games: int) -> tuple[float, float, int]:
    """Wall-clock seconds, CPU seconds and actions applied to play ``games`` random games."""
    actions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for seed in range(games):
        state = initial_state(new_game(variant, players, seed))
        choose = random.Random(seed).choice
        while outcome(state) is None:
            state = apply_action(state, choose(legal_actions(state)))
            actions += 1
    return time.perf_counter() - started, time.process_time() - cpu_started, actions


def time_calls(variant: str, players: int, games: int) -> tuple[float, float]:
    """Mean microseconds per ``legal_actions`` and per ``apply_action`` call."""
    clock = time.perf_counter_ns
    legal_ns = apply_ns = calls = 0
    for seed in range(games):
        state = initial_state(new_game(variant, players, seed))
        choose = random.Random(seed).choice
        while outcome(state) is None:
            before = clock()
            options = legal_actions(state)
            between = clock()
            state = apply_action(state, choose(options))
            after = clock()
            legal_ns += between - before
            apply_ns += after - between
            calls += 1
    return legal_ns / calls / 1000, apply_ns / calls / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=VARIANTS, default="splendor")
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", help="default: every count the game has")
    args = parser.parse_args()
    players_counts = args.players or list(seat_counts(args.variant))
    print(f"{args.variant}: random playouts, {args.games} seeded games per player count, one core")
    print("(games/s by the wall clock, and per second of this process's own CPU time, which a")
    print(" busy machine distorts less; the load average is printed last)")
    print(f"{'players':>7} {'games/s':>9} {'games/cpu-s':>12} {'actions/game':>13} "
          f"{'legal_actions µs':>17} {'apply_action µs':>16}")  # fmt: skip
    for players in players_counts:
        seconds, cpu_seconds, actions = play_games(args.variant, players, args.games)
        legal_us, apply_us = time_calls(args.variant, players, max(args.games // 4, 1))
        print(
            f"{players:>7} {args.games / seconds:>9.0f} {args.games / cpu_seconds:>12.0f} "
            f"{actions / args.games:>13.1f} {legal_us:>17.2f} {apply_us:>16.2f}"
        )
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
