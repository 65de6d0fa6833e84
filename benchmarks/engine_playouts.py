"""Random playouts through the public engine contract: how fast the rules run on one core.

Times are this process's CPU time (``time.process_time``), not wall-clock time: on a machine
shared with other work they move far less, though still somewhat (caches, shared cores).

Plays N seeded games of uniformly random legal actions for each player count, three times: with
``random_playout`` (each game's playout kernel: one mutable table played in place, the same games
as the step-by-step loop), through the trusted path (``apply_legal``, what bots and replays use)
and through the validating ``apply_action`` (what every request uses). Every timed pass plays games
of seeds no earlier pass played: the engine keeps bounded caches (the lines a board offers, a
hand's discards, a board's affordable cards), and games played again would find their positions
there, which new games (a bot's playouts, a new game's requests) do not. The caches are warm from
the earlier passes, as in a long-running process; ``--rounds 2`` or more keeps each path's best.
Prints games per second for each, mean actions per game, and the mean µs of one ``legal_actions``,
``apply_legal`` and ``apply_action`` call (timed in a separate pass so the games-per-second figures
carry no timer overhead). A Duel game includes its setup (shuffling its decks and tokens; the bag's
draw orders are worked out as the game reads them).

``--baseline DIR`` also times an older engine side by side: DIR holds a ``games/engine``
package (e.g. ``git archive 3b35dea games/engine | tar -x -C /tmp/base``) that is imported in
a child process (its caches warmed by a pass of other games first) and played with the same
loop, new seeds and the validating path, round by round in turn with this engine so that both
see the same load.

    python benchmarks/engine_playouts.py [--variant splendor|duel] [--games N]
        [--players 2 3 4] [--json] [--baseline DIR] [--rounds R]

``--json`` prints ``{"2": {"playout": games_per_s, "trusted": games_per_s, "validating":
games_per_s}, ...}``
(with ``"baseline"`` too when asked for). With a baseline, the table gives both the trusted
path's and the playout kernel's ratio to it, each in its own column.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WARM_UP_SEEDS = 10**9
"""The baseline's warm-up games start here: far from any timed pass's seeds."""


def load_engine(root: Path) -> ModuleType:
    sys.path.insert(0, str(root))
    return importlib.import_module("games.engine")


def play_games(
    engine: ModuleType, variant: str, players: int, seeds: range, *, trusted: bool
) -> tuple[float, int]:
    """Seconds taken and actions applied to play the games of ``seeds`` to the end."""
    apply = engine.apply_legal if trusted else engine.apply_action
    legal_actions = engine.legal_actions
    outcome = engine.outcome
    actions = 0
    started = time.process_time()
    for seed in seeds:
        state = engine.initial_state(engine.new_game(variant, players, seed))
        choose = random.Random(seed).choice
        while outcome(state) is None:
            state = apply(state, choose(legal_actions(state)))
            actions += 1
    return time.process_time() - started, actions


def play_kernel(engine: ModuleType, variant: str, players: int, seeds: range) -> float:
    """Seconds taken to play the games of ``seeds`` with ``random_playout`` (the game's playout
    kernel; the step-by-step loop for a game without one)."""
    started = time.process_time()
    for seed in seeds:
        state = engine.initial_state(engine.new_game(variant, players, seed))
        engine.random_playout(state, random.Random(seed).randrange)
    return time.process_time() - started


def time_calls(
    engine: ModuleType, variant: str, players: int, games: int
) -> tuple[float, float, float]:
    """Mean microseconds per ``legal_actions``, ``apply_legal`` and ``apply_action`` call."""
    clock = time.thread_time_ns
    legal_ns = trusted_ns = apply_ns = calls = 0
    for seed in range(games):
        state = engine.initial_state(engine.new_game(variant, players, seed))
        choose = random.Random(seed).choice
        while engine.outcome(state) is None:
            before = clock()
            options = engine.legal_actions(state)
            after_legal = clock()
            action = choose(options)
            before_trusted = clock()
            engine.apply_legal(state, action)
            after_trusted = clock()
            state = engine.apply_action(state, action)
            after_apply = clock()
            legal_ns += after_legal - before
            trusted_ns += after_trusted - before_trusted
            apply_ns += after_apply - after_trusted
            calls += 1
    return legal_ns / calls / 1000, trusted_ns / calls / 1000, apply_ns / calls / 1000


def time_baseline(baseline: Path, players: int, seeds: range) -> float:
    """Games per second of the engine under ``baseline``, timed in a child process."""
    child = subprocess.run(
        [sys.executable, __file__, "--child", str(baseline), "--games", str(len(seeds)),
         "--first-seed", str(seeds.start), "--players", str(players)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return float(json.loads(child.stdout)["games_per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--variant", default="splendor", help="splendor or duel")
    parser.add_argument("--players", type=int, nargs="+", help="default: every count the game has")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--baseline", type=Path, help="a folder holding an older games/engine")
    parser.add_argument("--rounds", type=int, default=1, help="timed rounds; the best is kept")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--first-seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine = load_engine(args.child)
        # A pass of other games first, so its caches are as warm as this engine's.
        warm_up = range(WARM_UP_SEEDS, WARM_UP_SEEDS + args.games)
        play_games(engine, "splendor", args.players[0], warm_up, trusted=False)
        seeds = range(args.first_seed, args.first_seed + args.games)
        seconds, _ = play_games(engine, "splendor", args.players[0], seeds, trusted=False)
        print(json.dumps({"games_per_s": args.games / seconds}))
        return
    engine = load_engine(ROOT)
    player_counts = args.players or list(engine.seat_counts(args.variant))
    figures: dict[str, dict[str, Any]] = {}
    fresh = (range(first, first + args.games) for first in itertools.count(0, args.games))
    for players in player_counts:
        best: dict[str, float] = {}
        actions = 0
        for _ in range(args.rounds):
            if hasattr(engine, "random_playout"):
                rate = args.games / play_kernel(engine, args.variant, players, next(fresh))
                best["playout"] = max(best.get("playout", 0.0), rate)
            runs = {"trusted": True, "validating": False}
            for name, trusted in runs.items():
                seconds, actions = play_games(
                    engine, args.variant, players, next(fresh), trusted=trusted
                )
                best[name] = max(best.get(name, 0.0), args.games / seconds)
            if args.baseline:
                rate = time_baseline(args.baseline, players, next(fresh))
                best["baseline"] = max(best.get("baseline", 0.0), rate)
        legal_us, trusted_us, apply_us = time_calls(
            engine, args.variant, players, max(args.games // 4, 1)
        )
        figures[str(players)] = {
            **{name: round(rate, 1) for name, rate in best.items()},
            "actions_per_game": round(actions / args.games, 1),
            "legal_actions_us": round(legal_us, 2),
            "apply_legal_us": round(trusted_us, 2),
            "apply_action_us": round(apply_us, 2),
        }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"random playouts, {args.games} seeded games per player count, one core, "
        f"CPU time, best of {args.rounds} round(s)"
    )
    header = f"{'players':>7} {'playout g/s':>11} {'trusted g/s':>11} {'validating g/s':>14}"
    if args.baseline:
        header += f" {'baseline g/s':>12} {'trusted/baseline':>16} {'playout/baseline':>16}"
    print(
        header + f" {'actions/game':>12} {'legal µs':>8} {'apply_legal µs':>14} "
        f"{'apply_action µs':>15}"
    )
    for players, row in figures.items():
        playout = row.get("playout", 0.0)
        line = f"{players:>7} {playout:>11.0f} {row['trusted']:>11.0f} {row['validating']:>14.0f}"
        if args.baseline:
            ratio = row["trusted"] / row["baseline"]
            kernel_ratio = playout / row["baseline"]
            line += f" {row['baseline']:>12.0f} {ratio:>15.2f}× {kernel_ratio:>15.2f}×"
        print(
            line + f" {row['actions_per_game']:>12.1f} {row['legal_actions_us']:>8.2f} "
            f"{row['apply_legal_us']:>14.2f} {row['apply_action_us']:>15.2f}"
        )


if __name__ == "__main__":
    main()
