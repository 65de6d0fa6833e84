"""Bot against bot: win rates with 95% Wilson intervals, time per move, game length.

Plays two-player games for each pairing, the seats alternated from game to game, in parallel
processes. Each bot sees only its own view, as in a real game. A shared win counts as half a
win. Game ``i`` of a pairing uses the deck seed ``seed + i``, and every move's bot seed is
derived from it, so a run is reproducible up to the time budgets (a search bot with a time
budget plays as well as the machine allows: run it on an idle machine).

A bot is named ``random``, ``greedy``, ``search@SECONDS`` (a time budget per move) or
``search#ITERATIONS`` (for Duel: samples per candidate); a pairing is ``A:B``. ``--variant
duel`` plays Splendor Duel instead of the base game.

``--cpu-budget`` counts a base-game search bot's ``@SECONDS`` in the CPU time of its process
instead of wall-clock time (the Duel search bot always counts CPU time). A live game's bot has
a wall-clock budget, but on a shared machine the CPU time that buys depends on the load:
counting CPU time measures the bot itself, as an idle machine would give it. The time per move
is printed both ways.

    python benchmarks/bots.py                         # the three standard pairings
    python benchmarks/bots.py --pairings search@0.25:greedy --games 100 --processes 2
    python benchmarks/bots.py --variant duel --pairings greedy:random search#2:greedy
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.engine as engine
from games.bots import search
from games.engine import Action
from games.variants import choose_bot_action

STANDARD_PAIRINGS: tuple[tuple[str, int], ...] = (
    ("greedy:random", 200),
    ("search@0.25:greedy", 200),
    ("search@1.0:greedy", 50),
)
DEFAULT_SEED = 20_240_601
Z_95 = 1.959964


class GameResult(NamedTuple):
    score: float
    """The first bot's result: 1 for a win, 0.5 for a shared win, 0 for a loss."""
    actions: int
    turns: int
    seconds: tuple[float, float]
    """Wall-clock time spent choosing, by the first bot and by the second."""
    cpu_seconds: tuple[float, float]
    """CPU time spent choosing, by the first bot and by the second."""
    moves: tuple[int, int]


def bot_player(spec: str, cpu_budget: bool = False) -> Callable[[dict[str, Any], int], Action]:
    """The move chooser named by ``spec``: a function of the view and a seed."""
    if spec in ("random", "greedy"):
        return lambda view, seed: choose_bot_action(spec, view, seed=seed)
    if spec.startswith("search@"):
        seconds = float(spec.removeprefix("search@"))
        if cpu_budget:
            settings = search.SearchSettings(cpu_time=True)
            return lambda view, seed: search.choose(
                view, random.Random(seed), budget_seconds=seconds, settings=settings
            )
        return lambda view, seed: choose_bot_action(
            "search", view, seed=seed, budget_seconds=seconds
        )
    if spec.startswith("search#"):
        iterations = int(spec.removeprefix("search#"))
        return lambda view, seed: choose_bot_action(
            "search", view, seed=seed, iterations=iterations
        )
    raise argparse.ArgumentTypeError(f"unknown bot {spec!r}")


def play_game(job: tuple[str, str, int, bool, str, bool]) -> GameResult:
    """One game: bot ``first`` takes seat 0 unless ``swapped``."""
    first, second, seed, swapped, variant, cpu_budget = job
    players = [bot_player(first, cpu_budget), bot_player(second, cpu_budget)]
    seat_of_first = 1 if swapped else 0
    by_seat = players[::-1] if swapped else players
    seconds = [0.0, 0.0]
    cpu_seconds = [0.0, 0.0]
    moves = [0, 0]
    state = engine.initial_state(engine.new_game(variant, 2, seed))
    actions = 0
    while engine.outcome(state) is None:
        seat = state.current
        bot = 0 if seat == seat_of_first else 1
        started = time.perf_counter()
        cpu_started = time.thread_time()
        action = by_seat[seat](engine.view(state, seat), seed * 10_000 + actions)
        cpu_seconds[bot] += time.thread_time() - cpu_started
        seconds[bot] += time.perf_counter() - started
        moves[bot] += 1
        state = engine.apply_action(state, action)
        actions += 1
    result = engine.outcome(state)
    assert result is not None
    score = 1.0 / len(result.winners) if seat_of_first in result.winners else 0.0
    return GameResult(
        score,
        actions,
        state.turn,
        (seconds[0], seconds[1]),
        (cpu_seconds[0], cpu_seconds[1]),
        (moves[0], moves[1]),
    )


def wilson(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (half wins allowed)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run_pairing(
    pairing: str, games: int, seed: int, processes: int, variant: str, cpu_budget: bool
) -> None:
    first, second = pairing.split(":")
    bot_player(first), bot_player(second)
    jobs = [
        (first, second, seed + index, index % 2 == 1, variant, cpu_budget) for index in range(games)
    ]
    started = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        results = pool.map(play_game, jobs, chunksize=1)
    elapsed = time.perf_counter() - started
    wins = sum(result.score for result in results)
    shared = sum(1 for result in results if result.score == 0.5)
    low, high = wilson(wins, games)
    time_first = sum(r.seconds[0] for r in results) / max(1, sum(r.moves[0] for r in results))
    time_second = sum(r.seconds[1] for r in results) / max(1, sum(r.moves[1] for r in results))
    cpu_first = sum(r.cpu_seconds[0] for r in results) / max(1, sum(r.moves[0] for r in results))
    cpu_second = sum(r.cpu_seconds[1] for r in results) / max(1, sum(r.moves[1] for r in results))
    print(f"{variant}: {first} vs {second}: {games} games, deck seeds {seed}..{seed + games - 1}")
    print(
        f"  {first} win rate {wins / games:.3f}  95% CI [{low:.3f}, {high:.3f}]"
        f"  ({wins:g} wins, {shared} shared)"
    )
    print(
        f"  mean time per move (wall / CPU): {first} {time_first * 1000:.1f} / "
        f"{cpu_first * 1000:.1f} ms, {second} {time_second * 1000:.1f} / "
        f"{cpu_second * 1000:.1f} ms"
    )
    print(
        f"  mean game length: {sum(r.actions for r in results) / games:.1f} actions, "
        f"{sum(r.turns for r in results) / games / 2:.1f} rounds"
    )
    print(f"  wall time {elapsed:.0f} s on {processes} process(es)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pairings",
        nargs="+",
        default=[pairing for pairing, _ in STANDARD_PAIRINGS],
        help="pairings A:B (default: greedy:random search@0.25:greedy search@1.0:greedy)",
    )
    parser.add_argument(
        "--games",
        type=int,
        nargs="+",
        help="games per pairing: one number for all, or one per pairing "
        "(default 200, and 50 for search@1.0)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="first deck seed")
    parser.add_argument("--variant", choices=engine.VARIANTS, default="splendor")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--cpu-budget",
        action="store_true",
        help="count search@SECONDS in CPU time rather than wall-clock time (base game)",
    )
    args = parser.parse_args()
    defaults = dict(STANDARD_PAIRINGS)
    if args.games is None:
        counts = [defaults.get(pairing, 200) for pairing in args.pairings]
    elif len(args.games) == 1:
        counts = args.games * len(args.pairings)
    elif len(args.games) == len(args.pairings):
        counts = args.games
    else:
        parser.error("give one --games count, or one per pairing")
    if args.cpu_budget and args.variant != "splendor":
        parser.error("--cpu-budget is for the base game's search bot")
    budget = "CPU time" if args.cpu_budget or args.variant == "duel" else "wall-clock time"
    print(f"seed {args.seed}, {args.processes} process(es), search budgets in {budget}")
    for pairing, games in zip(args.pairings, counts, strict=True):
        run_pairing(pairing, games, args.seed, args.processes, args.variant, args.cpu_budget)
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
