"""Bot against bot: win rates with 95% Wilson intervals, time per move, game length.

Plays games for each pairing (two bots, or a table of up to four for the base game), the seats
rotated from game to game, in parallel processes. Each bot sees only its own view, as in a real
game. A win shared by n counts as 1/n of a win. Game ``i`` of a pairing uses the deck seed
``seed + i``, and every move's bot seed is derived from it, so a run is reproducible up to the
time budgets (a search bot with a time budget plays as well as the machine allows: run it on an
idle machine).

A bot is named ``random``, ``greedy``, ``search@SECONDS`` (a time budget per move) or
``search#ITERATIONS`` (for Duel: samples per candidate), and ``expert@SECONDS`` or
``expert#ITERATIONS`` alike (the Expert, with the game's installed network); a pairing is
``A:B`` (or ``A:B:C``, ``A:B:C:D`` for a base game of three or four, the win rate being the
first bot's). ``--variant duel`` plays Splendor Duel instead of the base game.

The game length is printed as its distribution over the pairing's games (median, 99th
percentile, longest, in actions, with the longest game's deck seed to replay it): a bot that
wastes turns shows there first (docs/decisions/0141-bots-make-progress.md). A game still running
after ``--max-actions`` is stopped and counted as unfinished (a win shared by every seat).

``--cpu-budget`` counts a base-game search or Expert bot's ``@SECONDS`` in the CPU time of its
process instead of wall-clock time (the Duel's search and Expert always count CPU time). A live
game's bot has a wall-clock budget, but on a shared machine the CPU time that buys depends on
the load: counting CPU time measures the bot itself, as an idle machine would give it. The time
per move is printed both ways.

    python benchmarks/bots.py                         # the three standard pairings
    python benchmarks/bots.py --pairings search@0.25:greedy --games 100 --processes 2
    python benchmarks/bots.py --variant duel --pairings greedy:random search#2:greedy
    python benchmarks/bots.py --cpu-budget --pairings expert@0.25:search@0.25 --games 200
    python benchmarks/bots.py --pairings greedy:greedy:random --games 200
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.engine as engine
from games.bots import expert, search
from games.bots.learning.network import installed
from games.engine import Action
from games.variants import GAMES, choose_bot_action

STANDARD_PAIRINGS: tuple[tuple[str, int], ...] = (
    ("greedy:random", 200),
    ("search@0.25:greedy", 200),
    ("search@1.0:greedy", 50),
)
DEFAULT_SEED = 20_240_601
DEFAULT_MAX_ACTIONS = 5_000
"""Far beyond any game of bots that make progress: only a bot marking time reaches it."""
Z_95 = 1.959964


class GameResult(NamedTuple):
    score: float
    """The first bot's result: 1 for a win, 1/n for a win shared by n, 0 for a loss."""
    actions: int
    turns: int
    seconds: tuple[float, ...]
    """Wall-clock time spent choosing, by each bot of the pairing in its order."""
    cpu_seconds: tuple[float, ...]
    """CPU time spent choosing, by each bot of the pairing in its order."""
    moves: tuple[int, ...]
    seed: int
    """The game's deck seed."""
    finished: bool
    """False for a game stopped at the limit of actions."""


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
    for level in ("expert",):
        if spec.startswith(f"{level}@"):
            seconds = float(spec.removeprefix(f"{level}@"))
            if cpu_budget:
                return lambda view, seed: expert.choose(
                    view,
                    random.Random(seed),
                    network=installed(GAMES["splendor"].expert.network),
                    budget_seconds=seconds,
                    cpu_time=True,
                )
            return lambda view, seed: choose_bot_action(
                level, view, seed=seed, budget_seconds=seconds
            )
        if spec.startswith(f"{level}#"):
            count = int(spec.removeprefix(f"{level}#"))
            return lambda view, seed: choose_bot_action(level, view, seed=seed, iterations=count)
    raise argparse.ArgumentTypeError(f"unknown bot {spec!r}")


def play_game(job: tuple[tuple[str, ...], int, int, str, bool, int]) -> GameResult:
    """One game: the pairing's bots seated in order, rotated by ``rotation`` seats (the first
    bot takes seat ``rotation``), stopped after ``max_actions``."""
    specs, seed, rotation, variant, cpu_budget, max_actions = job
    players = [bot_player(spec, cpu_budget) for spec in specs]
    count = len(specs)
    bot_of_seat = [(seat - rotation) % count for seat in range(count)]
    seconds = [0.0] * count
    cpu_seconds = [0.0] * count
    moves = [0] * count
    state = engine.initial_state(engine.new_game(variant, count, seed))
    actions = 0
    while engine.outcome(state) is None and actions < max_actions:
        seat = state.current
        bot = bot_of_seat[seat]
        started = time.perf_counter()
        cpu_started = time.thread_time()
        action = players[bot](engine.view(state, seat), seed * 10_000 + actions)
        cpu_seconds[bot] += time.thread_time() - cpu_started
        seconds[bot] += time.perf_counter() - started
        moves[bot] += 1
        state = engine.apply_action(state, action)
        actions += 1
    result = engine.outcome(state)
    if result is None:
        score = 1.0 / count
    else:
        first_seat = bot_of_seat.index(0)
        score = 1.0 / len(result.winners) if first_seat in result.winners else 0.0
    return GameResult(
        score,
        actions,
        state.turn,
        tuple(seconds),
        tuple(cpu_seconds),
        tuple(moves),
        seed,
        result is not None,
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
    pairing: str,
    games: int,
    seed: int,
    processes: int,
    variant: str,
    cpu_budget: bool,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> None:
    specs = tuple(pairing.split(":"))
    for spec in specs:
        bot_player(spec)
    count = len(specs)
    jobs = [
        (specs, seed + index, index % count, variant, cpu_budget, max_actions)
        for index in range(games)
    ]
    started = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        results = pool.map(play_game, jobs, chunksize=1)
    elapsed = time.perf_counter() - started
    wins = sum(result.score for result in results)
    shared = sum(1 for result in results if 0.0 < result.score < 1.0)
    low, high = wilson(wins, games)
    first = specs[0]
    against = " vs ".join(specs)
    print(f"{variant}: {against}: {games} games, deck seeds {seed}..{seed + games - 1}")
    print(
        f"  {first} win rate {wins / games:.3f}  95% CI [{low:.3f}, {high:.3f}]"
        f"  ({wins:g} wins, {shared} shared)"
    )
    times = []
    for bot, spec in enumerate(specs):
        moves = max(1, sum(r.moves[bot] for r in results))
        wall = sum(r.seconds[bot] for r in results) / moves
        cpu = sum(r.cpu_seconds[bot] for r in results) / moves
        times.append(f"{spec} {wall * 1000:.1f} / {cpu * 1000:.1f} ms")
    print(f"  mean time per move (wall / CPU): {', '.join(times)}")
    lengths = sorted(r.actions for r in results)
    longest = max(results, key=lambda r: r.actions)
    print(
        f"  game length in actions: mean {sum(lengths) / games:.1f}, median "
        f"{statistics.median(lengths):g}, p99 {percentile(lengths, 0.99)}, max {lengths[-1]} "
        f"(deck seed {longest.seed}); mean {sum(r.turns for r in results) / games / count:.1f} "
        f"rounds; unfinished after {max_actions} actions: "
        f"{sum(not r.finished for r in results)}"
    )
    print(f"  wall time {elapsed:.0f} s on {processes} process(es)", flush=True)


def percentile(ordered: list[int], share: float) -> int:
    """The nearest-rank percentile of sorted values: the smallest with ``share`` at or below."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pairings",
        nargs="+",
        default=[pairing for pairing, _ in STANDARD_PAIRINGS],
        help="pairings A:B, or tables A:B:C... of as many bots as the game seats "
        "(default: greedy:random search@0.25:greedy search@1.0:greedy)",
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
        "--max-actions",
        type=int,
        default=DEFAULT_MAX_ACTIONS,
        help=f"stop a game after this many actions, as unfinished (default {DEFAULT_MAX_ACTIONS})",
    )
    parser.add_argument(
        "--cpu-budget",
        action="store_true",
        help="count search@ and expert@SECONDS in CPU time rather than wall-clock time (base game)",
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
    seats = engine.seat_counts(args.variant)
    for pairing in args.pairings:
        if len(pairing.split(":")) not in seats:
            parser.error(f"{pairing}: {args.variant} seats {min(seats)} to {max(seats)} bots")
    if args.cpu_budget and args.variant != "splendor":
        parser.error("--cpu-budget is for the base game's search bot")
    budget = "CPU time" if args.cpu_budget or args.variant == "duel" else "wall-clock time"
    print(f"seed {args.seed}, {args.processes} process(es), search budgets in {budget}")
    for pairing, games in zip(args.pairings, counts, strict=True):
        run_pairing(
            pairing,
            games,
            args.seed,
            args.processes,
            args.variant,
            args.cpu_budget,
            args.max_actions,
        )
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
