"""Train the Expert bot's network for one game: self-play, a fit, a gated match, installation.

    manage.py train_expert --variant splendor
    manage.py train_expert --variant duel --games 400 --gate-games 200 --install
    manage.py train_expert --variant splendor --games 4 --epochs 1 --gate-games 2 --iterations 2

The self-play and gate games are tasks on the ``training`` queue: with ``REDIS_URL`` a worker
of that queue plays them (Procfile, ``training``) while this waits; without it they are played
here. The fit runs in a child process. The candidate is accepted when its share of the gate's
games reaches the threshold; with ``--install`` an accepted candidate replaces the game's
network (``games/variants/<game>/expert.npz`` unless ``--network-path`` says otherwise).
docs/decisions/0143-a-bot-that-learns.md has the numbers and why.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.bots.learning.fit import FitSettings
from training.games import expert_of, has_expert
from training.models import TrainingRun
from training.playing import GATE_SEED_OFFSET
from training.runs import RunSettings, TrainingFailed, summary, train

DEFAULT_GAMES = 200
DEFAULT_GATE_GAMES = 200
EDGE_OVER_AN_EQUAL_SHARE = 1.1
"""The default threshold: a tenth more than an equal share of the wins, 0.55 heads-up."""


class Command(BaseCommand):
    help = "Train the Expert's value network from self-play; accept it only if it wins the gate."

    def add_arguments(self, parser: CommandParser) -> None:
        variants = [variant for variant in engine.VARIANTS if has_expert(variant)]
        parser.add_argument("--variant", required=True, choices=variants)
        parser.add_argument(
            "--games", type=int, default=DEFAULT_GAMES, help=f"self-play games ({DEFAULT_GAMES})"
        )
        parser.add_argument("--seats", type=int, default=2, help="players per game (2)")
        parser.add_argument(
            "--iterations",
            type=int,
            help="the search's iterations per move, in self-play and the gate (by game: "
            "the base game 50, the Duel 1 sample per candidate move)",
        )
        parser.add_argument(
            "--epochs", type=int, default=FitSettings().epochs, help="passes over the data (30)"
        )
        parser.add_argument(
            "--gate-games",
            type=int,
            default=DEFAULT_GATE_GAMES,
            help=f"games of the candidate against the champion ({DEFAULT_GATE_GAMES}); "
            "a multiple of --seats, so that each deal is played from every chair",
        )
        parser.add_argument(
            "--threshold",
            type=float,
            help="the share of the gate's wins the candidate needs (default 1.1 / seats: "
            "0.55 heads-up)",
        )
        parser.add_argument("--seed", type=int, help="the run's seed (default: a random one)")
        self._add_data_and_installation_arguments(parser)

    @staticmethod
    def _add_data_and_installation_arguments(parser: CommandParser) -> None:
        """Which earlier games the fit reads, where an accepted network goes, how long to wait."""
        parser.add_argument(
            "--with-accepted-runs",
            action="store_true",
            help="fit on the games of earlier accepted runs of the game too",
        )
        parser.add_argument(
            "--with-runs",
            type=int,
            nargs="+",
            default=[],
            metavar="RUN",
            help="fit on the games of these earlier runs of the game too, accepted or not",
        )
        parser.add_argument(
            "--install",
            action=argparse.BooleanOptionalAction,
            default=False,
            help="write an accepted network over the game's installed one (default: no)",
        )
        parser.add_argument(
            "--network-path",
            type=Path,
            help="the installed network to challenge and replace (default: the game's "
            "package file, games/variants/<game>/expert.npz)",
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=0,
            metavar="SECONDS",
            help="give up when the workers take longer than this for a stage (0: wait)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        variant = options["variant"]
        expert = expert_of(variant)
        seed = options["seed"] if options["seed"] is not None else secrets.randbelow(2**31)
        if not 0 <= seed < 2**31:
            raise CommandError("--seed must be between 0 and 2**31 - 1")
        try:
            run = train(
                variant=variant,
                seed=seed,
                run_settings=_run_settings(variant, expert.training_iterations, options),
                network_path=options["network_path"] or expert.network,
                install=options["install"],
                timeout=options["timeout"],
                say=self.stdout.write,
            )
        except TrainingFailed as error:
            raise CommandError(str(error)) from error
        run.refresh_from_db()
        for line in summary(run):
            self.stdout.write(line)


def _run_settings(variant: str, default_iterations: int, options: dict[str, Any]) -> RunSettings:
    """The run's settings from the command's options; a ``CommandError`` for any that cannot
    make a run."""
    seats = options["seats"]
    if seats not in engine.seat_counts(variant):
        counts = ", ".join(str(count) for count in engine.seat_counts(variant))
        raise CommandError(f"{variant} is played by {counts} players")
    if not 1 <= options["games"] < GATE_SEED_OFFSET:
        raise CommandError(f"--games must be between 1 and {GATE_SEED_OFFSET - 1}")
    gate_games = options["gate_games"]
    if gate_games < seats or gate_games % seats or gate_games >= GATE_SEED_OFFSET:
        raise CommandError("--gate-games must be a positive multiple of --seats")
    iterations = options["iterations"] or default_iterations
    if iterations < 1 or options["epochs"] < 1:
        raise CommandError("--iterations and --epochs must be at least 1")
    threshold = options["threshold"]
    if threshold is None:
        threshold = round(EDGE_OVER_AN_EQUAL_SHARE / seats, 4)
    with_runs = tuple(options["with_runs"])
    known = set(
        TrainingRun.objects.filter(pk__in=with_runs, variant=variant).values_list("pk", flat=True)
    )
    unknown = [str(pk) for pk in with_runs if pk not in known]
    if unknown:
        raise CommandError(f"no earlier {variant} run {', '.join(unknown)}")
    return RunSettings(
        games=options["games"],
        seats=seats,
        iterations=iterations,
        gate_games=gate_games,
        threshold=threshold,
        with_accepted_runs=options["with_accepted_runs"],
        with_runs=with_runs,
        fit=FitSettings(epochs=options["epochs"]),
    )
