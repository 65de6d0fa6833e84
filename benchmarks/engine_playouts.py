"""Random playouts through the public engine contract: how fast the rules run on one core.

Times are this process's CPU time (``time.process_time``), not wall-clock time: on a machine
shared with other work they move far less, though still somewhat (caches, shared cores).

Plays N seeded games of uniformly random legal actions for each player count, twice: through the
trusted path (``apply_legal``, what bots and replays use) and through the validating
``apply_action`` (what every request uses). Every timed pass plays games of seeds no earlier pass
played: the engine keeps bounded caches (the lines a board offers, a hand's discards, a board's
affordable cards), and games played again would find their positions there, which new games (a
bot's playouts, a new game's requests) do not. A pass of other games warms the caches first, as
in a long-running process; ``--rounds 2`` or more keeps each path's best. Prints games per second
for each, mean actions per game, and the mean µs of one ``legal_actions``, ``apply_legal`` and
``apply_action`` call (timed in a separate pass so the games-per-second figures carry no timer
overhead). A Duel game includes its setup (shuffling its decks and tokens; the bag's draw orders
are worked out as the game reads them).

``--baseline DIR`` also times an older engine side by side: DIR holds a ``games/engine``
package (e.g. ``git archive 3b35dea games/engine | tar -x -C /tmp/base``). Each round, both
engines are then timed alike: each in a fresh child process, warmed by the same pass of other
games, on the same new seeds through both paths (the validating path alone for an engine
without ``apply_legal``), first in turn from round to round, so that both see the same load.

    python benchmarks/engine_playouts.py [--variant splendor|duel] [--games N]
        [--players 2 3 4] [--json] [--baseline DIR] [--rounds R]

``--json`` prints ``{"2": {"trusted": games_per_s, "validating": games_per_s, ...}, ...}``
(with ``"baseline_trusted"`` and ``"baseline_validating"`` too when asked for). With a baseline,
the table gives each path's ratio to the baseline's same path.
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
    """``games.engine`` from the tree at ``root``.

    ``games`` is made a package of ``root/games`` alone: a folder holding only
    ``games/engine`` (as ``git archive`` gives) has no ``games/__init__.py``, and Python would
    otherwise import the installed ``games`` package, and so this engine, in its place.
    """
    package = ModuleType("games")
    package.__path__ = [str(root / "games")]
    sys.modules["games"] = package
    engine = importlib.import_module("games.engine")
    loaded = Path(engine.__file__ or "").resolve()
    if not loaded.is_relative_to(root.resolve()):
        raise SystemExit(f"{root}: imported games.engine from {loaded} instead")
    return engine


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


def warm_up(engine: ModuleType, variant: str, players: int, games: int) -> None:
    """Play games of seeds no timed pass uses, so that the engine's caches are warm."""
    seeds = range(WARM_UP_SEEDS, WARM_UP_SEEDS + games)
    play_games(engine, variant, players, seeds, trusted=hasattr(engine, "apply_legal"))


def time_paths(
    engine: ModuleType, variant: str, players: int, seeds: dict[str, range]
) -> tuple[dict[str, float], int]:
    """Games per second of each path named in ``seeds`` (``trusted``, ``validating``), each on
    its own seeds, and the actions of the last path's games."""
    rates = {}
    actions = 0
    for path, path_seeds in seeds.items():
        seconds, actions = play_games(
            engine, variant, players, path_seeds, trusted=path == "trusted"
        )
        rates[path] = len(path_seeds) / seconds
    return rates, actions


def time_in_child(
    root: Path, variant: str, players: int, seeds: dict[str, range]
) -> tuple[dict[str, float], int]:
    """Games per second of each path of the engine under ``root`` (the trusted path only if
    that engine has one), and the actions of its last path's games: warmed and timed in a
    child process of its own, as :func:`child_main` does."""
    child = subprocess.run(
        [sys.executable, __file__, "--child", str(root), "--variant", variant,
         "--games", str(len(seeds["validating"])), "--players", str(players),
         "--first-seeds", str(seeds["trusted"].start), str(seeds["validating"].start)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    timed = json.loads(child.stdout)
    rates: dict[str, float] = timed["rates"]
    return rates, int(timed["actions"])


def child_main(args: argparse.Namespace) -> None:
    """One engine's side of ``--baseline``: its warm-up and timed passes, as JSON."""
    engine = load_engine(args.child)
    players = args.players[0]
    warm_up(engine, args.variant, players, args.games)
    trusted_first, validating_first = args.first_seeds
    seeds = {"validating": range(validating_first, validating_first + args.games)}
    if hasattr(engine, "apply_legal"):
        seeds = {"trusted": range(trusted_first, trusted_first + args.games), **seeds}
    rates, actions = time_paths(engine, args.variant, players, seeds)
    print(json.dumps({"rates": rates, "actions": actions}))


def time_round(
    engine: ModuleType, args: argparse.Namespace, players: int, seeds: dict[str, range], turn: int
) -> tuple[dict[str, float], int]:
    """One round's games per second by path (``baseline_``-prefixed for the baseline's), and
    the actions of this engine's last path's games.

    Alone, this engine is timed in this process, its caches warm from the earlier passes. With
    a baseline, both engines are timed alike, each in a fresh child process on the same seeds,
    in turn first from round to round: in this process, whose caches and heap have grown over
    the earlier rounds, this engine would run under other conditions than the baseline's child
    (by up to a fifth either way, timing one engine against itself)."""
    if not args.baseline:
        return time_paths(engine, args.variant, players, seeds)
    if turn % 2 == 0:
        rates, actions = time_in_child(ROOT, args.variant, players, seeds)
        baseline_rates, _ = time_in_child(args.baseline, args.variant, players, seeds)
    else:
        baseline_rates, _ = time_in_child(args.baseline, args.variant, players, seeds)
        rates, actions = time_in_child(ROOT, args.variant, players, seeds)
    rates.update({f"baseline_{path}": rate for path, rate in baseline_rates.items()})
    return rates, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--variant", default="splendor", help="splendor or duel")
    parser.add_argument("--players", type=int, nargs="+", help="default: every count the game has")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--baseline", type=Path, help="a folder holding an older games/engine")
    parser.add_argument("--rounds", type=int, default=1, help="timed rounds; the best is kept")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--first-seeds", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return
    engine = load_engine(ROOT)
    player_counts = args.players or list(engine.seat_counts(args.variant))
    figures: dict[str, dict[str, Any]] = {}
    fresh = (range(first, first + args.games) for first in itertools.count(0, args.games))
    for players in player_counts:
        if not args.baseline:
            warm_up(engine, args.variant, players, args.games)
        best: dict[str, float] = {}
        actions = 0
        for turn in range(args.rounds):
            seeds = {"trusted": next(fresh), "validating": next(fresh)}
            rates, actions = time_round(engine, args, players, seeds, turn)
            for name, rate in rates.items():
                best[name] = max(best.get(name, 0.0), rate)
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
    print_table(figures, args)


def print_table(figures: dict[str, dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"random playouts of {args.variant}, {args.games} seeded games per player count, "
          f"one core, CPU time, best of {args.rounds} round(s)")  # fmt: skip
    header = f"{'players':>7} {'trusted g/s':>11} {'validating g/s':>14}"
    if args.baseline:
        header += (f" {'base trusted g/s':>16} {'base validating g/s':>19}"
                   f" {'trusted/base':>12} {'validating/base':>15}")  # fmt: skip
    print(header + f" {'actions/game':>12} {'legal µs':>8} {'apply_legal µs':>14} "
          f"{'apply_action µs':>15}")  # fmt: skip
    for players, row in figures.items():
        line = f"{players:>7} {row['trusted']:>11.0f} {row['validating']:>14.0f}"
        if args.baseline:
            base_trusted = row.get("baseline_trusted")
            base_validating = row["baseline_validating"]
            if base_trusted is None:  # an engine from before the trusted path
                line += f" {'-':>16} {base_validating:>19.0f} {'-':>12}"
            else:
                trusted_ratio = row["trusted"] / base_trusted
                line += f" {base_trusted:>16.0f} {base_validating:>19.0f} {trusted_ratio:>11.2f}×"
            line += f" {row['validating'] / base_validating:>14.2f}×"
        print(line + f" {row['actions_per_game']:>12.1f} {row['legal_actions_us']:>8.2f} "
              f"{row['apply_legal_us']:>14.2f} {row['apply_action_us']:>15.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
