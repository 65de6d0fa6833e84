"""Calibration of the game analysis: are its chances to win what happens?

Plays games between the search bot and the greedy bot (two players, seats alternated from game
to game, each bot seeing only its own view) in both games, then judges moves of every game as
the analysis does (``analysis.evaluation.judge_move``: the mover's view only, the documented
budget of each game's package, ``Game.position_judge``) and compares each position's chance to
win for its mover (the chance with the move the analysis prefers) with the game's real result
for that seat (1 a win, 1/k a win shared by k, 0 a loss). It prints, per game and overall:

- the Brier score (mean squared error of the chances), next to the base rate's (every position
  given the mean result: 0.25 when the seats win equally), and their skill score 1 − B/B_base;
- a reliability table: positions by predicted decile, their mean chance and observed result;
- the worker time of one analysis: one whole game judged at the budget, in CPU seconds.

Games are played with an iteration budget (reproducible: game ``i`` of a variant uses the deck
seed ``seed + i``, and each move's bot seed derives from it). ``--every K`` judges every K-th
move only (the lead's full run judges them all); ``--processes`` plays and judges games in
parallel.

    .venv/bin/python benchmarks/analysis_calibration.py --games 200 --processes 2
    .venv/bin/python benchmarks/analysis_calibration.py --games 10 --every 3   # a quick look
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")
# Each game's budget comes from its package (``Game.position_judge``), read through Django.
django.setup()

from analysis.evaluation import judge_game, judge_move  # noqa: E402 (after django.setup())
from games import bots, engine  # noqa: E402 (after django.setup())
from games.bots import greedy, search  # noqa: E402 (after django.setup())
from games.bots.duel import greedy as duel_greedy  # noqa: E402 (after django.setup())
from games.bots.duel import search as duel_search  # noqa: E402 (after django.setup())
from games.variants import game_for  # noqa: E402 (after django.setup())

DEFAULT_SEED = 20_261_127
PLAY_ITERATIONS = {"splendor": 200, "duel": 1}
"""The search bot's budget while playing: iterations (base game) or samples (Duel)."""
BUDGETS = {variant: game_for(variant).position_judge.settings() for variant in engine.VARIANTS}
"""What each game's analysis computes with now: its budget, and its network if one judges."""
MOVE_BOUND = 600


class Judged(NamedTuple):
    chance: float
    result: float


def play(variant: str, seed: int, search_seat: int) -> tuple[list[Any], list[dict[str, Any]]]:
    """A game between the search bot (in ``search_seat``) and greedy: its states and actions."""
    choosers = (
        {"greedy": duel_greedy.choose, "search": duel_search.choose}
        if variant == "duel"
        else {"greedy": greedy.choose, "search": search.choose}
    )
    state = engine.initial_state(engine.new_game(variant, 2, seed))
    states, actions = [state], []
    rng = random.Random(seed)
    while engine.acting_seat(state) is not None and len(actions) < MOVE_BOUND:
        seat = engine.acting_seat(state)
        level = "search" if seat == search_seat else "greedy"
        action = bots.choose_action(
            choosers,
            level,
            engine.view(state, seat),
            seed=rng.randrange(2**32),
            iterations=PLAY_ITERATIONS[variant],
        )
        state = engine.apply_legal(state, action)
        states.append(state)
        actions.append(engine.action_to_json(action))
    return states, actions


def results(state: Any) -> list[float]:
    outcome = engine.outcome(state)
    if outcome is None:  # the move bound: nobody won
        return [0.5, 0.5]
    share = 1.0 / len(outcome.winners)
    return [share if seat in outcome.winners else 0.0 for seat in range(2)]


def judge_one(job: tuple[str, int, int, int]) -> tuple[str, list[Judged], int]:
    variant, seed, search_seat, every = job
    states, actions = play(variant, seed, search_seat)
    final = results(states[-1])
    judged = []
    for index in range(0, len(actions), every):
        move = judge_move(
            variant,
            states[index],
            actions[index],
            step=index + 1,
            seed=seed,
            budget=BUDGETS[variant],
        )
        judged.append(Judged(move.before, final[move.mover]))
    return variant, judged, len(actions)


def brier(judged: Sequence[Judged]) -> tuple[float, float]:
    """The Brier score of the chances and that of the base rate (the mean result)."""
    base = sum(item.result for item in judged) / len(judged)
    score = sum((item.chance - item.result) ** 2 for item in judged) / len(judged)
    base_score = sum((base - item.result) ** 2 for item in judged) / len(judged)
    return score, base_score


def reliability(judged: Sequence[Judged]) -> list[tuple[str, int, float, float]]:
    rows = []
    for decile in range(10):
        low, high = decile / 10, (decile + 1) / 10
        inside = [
            item
            for item in judged
            if low <= item.chance < high or (decile == 9 and item.chance == 1)
        ]
        if inside:
            mean_chance = sum(item.chance for item in inside) / len(inside)
            observed = sum(item.result for item in inside) / len(inside)
            rows.append((f"{low:.1f}–{high:.1f}", len(inside), mean_chance, observed))
    return rows


def report(title: str, judged: Sequence[Judged]) -> None:
    score, base_score = brier(judged)
    skill = 1 - score / base_score if base_score else float("nan")
    print(f"\n{title}: {len(judged)} positions")
    print(f"  Brier score {score:.4f}  base rate's {base_score:.4f}  skill {skill:+.3f}")
    print("  predicted   positions  mean chance  observed")
    for label, count, mean_chance, observed in reliability(judged):
        print(f"  {label:10}  {count:9}  {mean_chance:11.3f}  {observed:8.3f}")


def one_analysis_seconds(variant: str, seed: int) -> tuple[float, int]:
    """CPU seconds to judge every move of one game at the budget, and its moves."""
    states, actions = play(variant, seed, 0)
    started = time.thread_time()
    judge_game(variant, states, actions, seed=seed, budget=BUDGETS[variant])
    return time.thread_time() - started, len(actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per variant")
    parser.add_argument("--every", type=int, default=1, help="judge every K-th move")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--variants", nargs="+", default=["splendor", "duel"])
    args = parser.parse_args()

    started = time.perf_counter()
    jobs = [
        (variant, args.seed + index, index % 2, max(1, args.every))
        for variant in args.variants
        for index in range(args.games)
    ]
    by_variant: dict[str, list[Judged]] = {variant: [] for variant in args.variants}
    lengths: dict[str, list[int]] = {variant: [] for variant in args.variants}
    with multiprocessing.Pool(args.processes) as pool:
        for variant, judged, length in pool.imap_unordered(judge_one, jobs):
            by_variant[variant].extend(judged)
            lengths[variant].append(length)
    print(
        f"search (play budget {PLAY_ITERATIONS}) against greedy, {args.games} games a variant, "
        f"every {args.every} move(s) judged at {BUDGETS}"
    )
    for variant in args.variants:
        moves = lengths[variant]
        print(f"\n{variant}: {len(moves)} games, {sum(moves) / len(moves):.0f} moves a game")
        report(f"{variant}", by_variant[variant])
    if len(args.variants) > 1:
        report("both games", [item for items in by_variant.values() for item in items])
    print("\nWorker time of one analysis (every move judged, one game, CPU):")
    for variant in args.variants:
        seconds, moves = one_analysis_seconds(variant, args.seed)
        print(f"  {variant}: {seconds:.1f} s for {moves} moves ({seconds / moves:.3f} s a move)")
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
