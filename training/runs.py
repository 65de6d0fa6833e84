"""A training run from start to finish: self-play, fit, gate, and the network's installation.

``manage.py train_expert`` calls :func:`train`. The games are tasks on the ``training`` queue
(``training.tasks``): with a broker the workers play them while this waits, polling their rows;
embedded (no ``REDIS_URL``) each runs here as it is queued. The fit runs in a child process
(``training.fitting``). A candidate is accepted if its score over the gate's match reaches the
threshold; only then, and if asked, it replaces the game's installed network, with the run's
provenance in its metadata (docs/decisions/0143).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from celery import Task
from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from games.bots.learning import gate
from games.bots.learning.fit import FitSettings
from games.bots.learning.network import ValueNetwork, from_bytes, load
from training import tasks
from training.fitting import write_games
from training.games import expert_of
from training.models import GateGame, RunStatus, SelfPlayGame, TrainingRun
from training.playing import GATE_SEED_OFFSET, SEEDS_PER_RUN

PROGRESS_EVERY_SECONDS = 10.0
POLL_SECONDS = 0.5

Say = Callable[[str], None]


class TrainingFailed(Exception):
    """The run cannot go on; its message says why, for the person who started it."""


@dataclass(frozen=True)
class RunSettings:
    games: int
    seats: int
    iterations: int
    gate_games: int
    threshold: float
    with_accepted_runs: bool
    with_runs: tuple[int, ...]
    """Earlier runs of the game whose games the fit uses too, accepted or not: a refused run's
    games are sound data, only its network lost."""
    fit: FitSettings

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "fit": self.fit.as_dict()}


def champion_at(path: Path) -> tuple[str, bytes | None]:
    """The bot a run challenges, named, and its network: the one at ``path`` unless there is
    none or it is provisional (``"provisional": true`` in its metadata), else the search bot."""
    try:
        network = load(path)
    except FileNotFoundError:
        return "search bot (no network installed)", None
    if network.provisional:
        return "search bot (the installed network is provisional)", None
    run = network.metadata.get("run")
    return f"Expert ({f'run {run}' if run is not None else path.name})", network.to_bytes()


def train(
    *,
    variant: str,
    seed: int,
    run_settings: RunSettings,
    network_path: Path,
    install: bool,
    timeout: float,
    say: Say,
) -> TrainingRun:
    """One run from start to finish; ``TrainingFailed`` (the run then marked failed) when it
    cannot finish."""
    champion, champion_network = champion_at(network_path)
    run = TrainingRun.objects.create(
        variant=variant,
        seats=run_settings.seats,
        seed=seed,
        settings=run_settings.as_json(),
        champion=champion,
        champion_network=champion_network,
    )
    say(
        f"Run {run.pk}: {variant}, {run.seats} seats, seed {seed}; the champion: {champion}, "
        f"{run_settings.iterations} iterations a move"
    )
    try:
        _self_play(run, run_settings, timeout, say)
        _fit(run, run_settings, say)
        _gate(run, run_settings, timeout, say)
        _conclude(run, network_path, install)
    except Exception:
        TrainingRun.objects.filter(pk=run.pk).update(
            status=RunStatus.FAILED, finished_at=timezone.now()
        )
        raise
    return run


def _self_play(run: TrainingRun, run_settings: RunSettings, timeout: float, say: Say) -> None:
    say(f"Self-play: {run_settings.games} games on the {settings.TRAINING_QUEUE!r} queue")
    played = SelfPlayGame.objects.filter(run=run)
    _play_all(tasks.play_selfplay_game, run, run_settings.games, played.count, "self-play", say)
    _wait_for(played.count, run_settings.games, "self-play", timeout, say)


def _fit(run: TrainingRun, run_settings: RunSettings, say: Say) -> None:
    run.status = RunStatus.FITTING
    run.save(update_fields=["status"])
    runs = [run.pk]
    if run_settings.with_accepted_runs:
        earlier = TrainingRun.objects.filter(variant=run.variant, accepted=True)
        runs += list(earlier.exclude(pk=run.pk).order_by("pk").values_list("pk", flat=True))
    runs += [pk for pk in run_settings.with_runs if pk not in runs]
    data = SelfPlayGame.objects.filter(run_id__in=runs)
    games = data.count()
    positions = data.aggregate(total=Sum("positions"))["total"] or 0
    say(f"Fit: {games} games, {positions} positions (runs {_listed(runs)}), in a child process")
    directory = Path(settings.TRAINING_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    candidate_path = directory / f"{run.pk}.npz"
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        games_path = Path(scratch) / "games.npz"
        stored = data.order_by("run_id", "index").values_list("data", flat=True)
        write_games(games_path, (bytes(row) for row in stored.iterator()))
        report, cpu_seconds = _fit_in_child_process(
            games_path,
            candidate_path,
            run_settings.fit,
            run.seed,
            expert_of(run.variant).most_seats,
        )
    run.games_generated = SelfPlayGame.objects.filter(run=run).count()
    run.positions = positions
    run.fit_report = report
    run.fit_cpu_seconds = round(cpu_seconds, 3)
    run.settings = {**run.settings, "data_runs": runs, "data_games": games}
    run.candidate_path = str(candidate_path)
    network = load(candidate_path)
    network = ValueNetwork(network.layers, _provenance(run))
    network.save(candidate_path)
    run.candidate_network = network.to_bytes()
    run.status = RunStatus.GATING
    run.save()
    say(f"Fit: {describe_fit(report)}; {cpu_seconds:.1f} s CPU; candidate {candidate_path}")


def _fit_in_child_process(
    games_path: Path, network_path: Path, fit_settings: FitSettings, seed: int, max_seats: int
) -> tuple[dict[str, Any], float]:
    command = [
        sys.executable, "-m", "training.fitting", str(games_path), str(network_path),
        "--seed", str(seed), "--max-seats", str(max_seats),
        "--settings", json.dumps(fit_settings.as_dict()),
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run(
        command, cwd=settings.BASE_DIR, capture_output=True, text=True, check=False
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if finished.returncode != 0:
        raise TrainingFailed(f"the fit failed (exit {finished.returncode}):\n{finished.stderr}")
    report: dict[str, Any] = json.loads(finished.stdout.strip().splitlines()[-1])
    cpu_seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return report, cpu_seconds


def _gate(run: TrainingRun, run_settings: RunSettings, timeout: float, say: Say) -> None:
    count = run_settings.gate_games
    say(f"Gate: the candidate against the champion, {count} games")
    played = GateGame.objects.filter(run=run)
    _play_all(tasks.play_gate_game, run, count, played.count, "gate", say)
    _wait_for(played.count, count, "gate", timeout, say)
    scores = list(played.order_by("index").values_list("candidate_score", flat=True))
    result = gate.match_result(scores)
    accepted = result.score >= run_settings.threshold
    run.gate_result = {**result.as_dict(), "threshold": run_settings.threshold}
    run.accepted = accepted
    run.save(update_fields=["gate_result", "accepted"])


def _conclude(run: TrainingRun, network_path: Path, install: bool) -> None:
    """Write the whole provenance into the candidate's file; install it if accepted and
    asked; close the run with its cost."""
    games_cpu = SelfPlayGame.objects.filter(run=run).aggregate(total=Sum("cpu_seconds"))
    gate_cpu = GateGame.objects.filter(run=run).aggregate(total=Sum("cpu_seconds"))
    run.worker_cpu_seconds = round((games_cpu["total"] or 0.0) + (gate_cpu["total"] or 0.0), 3)
    assert run.candidate_network is not None
    candidate = from_bytes(bytes(run.candidate_network))
    network = ValueNetwork(candidate.layers, _provenance(run))
    network.save(Path(run.candidate_path))
    if run.accepted and install:
        network_path.parent.mkdir(parents=True, exist_ok=True)
        # Written beside, then renamed: a worker loading the network never reads half a file.
        partial = network_path.with_name(network_path.name + ".partial")
        network.save(partial)
        os.replace(partial, network_path)
        run.installed_path = str(network_path)
    run.status = RunStatus.DONE
    run.finished_at = timezone.now()
    run.save()


def _provenance(run: TrainingRun) -> dict[str, Any]:
    """Where a network came from, as its file's metadata: enough to make it again."""
    selfplay_cpu = SelfPlayGame.objects.filter(run=run).aggregate(total=Sum("cpu_seconds"))
    gate_cpu = GateGame.objects.filter(run=run).aggregate(total=Sum("cpu_seconds"))
    seconds = {
        "self_play": selfplay_cpu["total"] or 0.0,
        "gate": gate_cpu["total"] or 0.0,
        "fit": run.fit_cpu_seconds,
    }
    return {
        "provisional": False,
        "variant": run.variant,
        "seats": run.seats,
        "run": run.pk,
        "champion": run.champion,
        "seeds": {
            "run": run.seed,
            "self_play": f"game i: {run.seed} × {SEEDS_PER_RUN} + i",
            "gate": f"deal d: {run.seed} × {SEEDS_PER_RUN} + {GATE_SEED_OFFSET} + d",
            "fit": run.seed,
        },
        "settings": run.settings,
        "data": {
            "games": run.settings.get("data_games"),
            "positions": run.positions,
            "runs": run.settings.get("data_runs"),
        },
        "fit": run.fit_report,
        "gate": run.gate_result,
        "accepted": run.accepted,
        "cpu_hours": {
            **{part: round(value / 3600, 4) for part, value in seconds.items()},
            "workers": round((seconds["self_play"] + seconds["gate"]) / 3600, 4),
        },
    }


def _play_all(
    task: Task, run: TrainingRun, count: int, played: Callable[[], int], what: str, say: Say
) -> None:
    """Queue the run's ``count`` games; embedded, play each here instead (called directly, as
    ``games.commands.task_queue`` does: the same code without a log line per game)."""
    embedded = settings.CELERY_TASK_ALWAYS_EAGER
    next_report = time.monotonic() + PROGRESS_EVERY_SECONDS
    for index in range(count):
        if embedded:
            task(run.pk, index)
        else:
            task.delay(run.pk, index)
        if embedded and time.monotonic() >= next_report:
            say(f"  {what}: {played()}/{count} games")
            next_report = time.monotonic() + PROGRESS_EVERY_SECONDS


def _wait_for(played: Callable[[], int], count: int, what: str, timeout: float, say: Say) -> None:
    """Until ``count`` games are stored, saying how many every so often; ``timeout`` seconds
    at most (0: no limit)."""
    started = time.monotonic()
    next_report = started
    while True:
        done = played()
        if done >= count:
            say(f"  {what}: {done}/{count} games")
            return
        now = time.monotonic()
        if timeout and now - started > timeout:
            raise TrainingFailed(
                f"{what}: {done}/{count} games after {timeout:.0f} s; is a worker consuming the "
                f"{settings.TRAINING_QUEUE!r} queue?"
            )
        if now >= next_report:
            say(f"  {what}: {done}/{count} games")
            next_report = now + PROGRESS_EVERY_SECONDS
        time.sleep(POLL_SECONDS)


def describe_fit(report: dict[str, Any] | None) -> str:
    if not report:
        return "not fit"
    if report.get("brier") is None:
        return f"{report['games']} games, none held out (too few to check the network on)"
    return (
        f"held out {report['held_out_games']} of {report['games']} games: Brier "
        f"{report['brier']:.4f} against the base rate's {report['base_rate_brier']:.4f} "
        f"(loss {report['loss']:.4f})"
    )


def summary(run: TrainingRun) -> list[str]:
    """The run's outcome in a few lines, for the person who started it."""
    result = run.gate_result or {}
    verdict = "accepted" if run.accepted else "refused"
    lines = [
        f"Run {run.pk} of {run.variant} ({run.seats} seats, seed {run.seed}): {run.status}",
        f"  games generated: {run.games_generated}; positions fit on: {run.positions}",
        f"  fit: {describe_fit(run.fit_report)}",
        f"  gate: the candidate scored {result.get('score', 0.0):.3f} over {result.get('games')} "
        f"games ({result.get('wins')} won, {result.get('shared')} shared, "
        f"{result.get('losses')} lost; 95% {result.get('low', 0.0):.3f}–"
        f"{result.get('high', 1.0):.3f}) against {run.champion}; threshold "
        f"{result.get('threshold')}: {verdict}",
        f"  candidate: {run.candidate_path}",
        f"  installed: {run.installed_path or 'no'}",
        f"  cost: worker CPU {run.worker_cpu_seconds:.1f} s "
        f"({run.worker_cpu_seconds / 3600:.3f} h), fit CPU {run.fit_cpu_seconds:.1f} s",
    ]
    return lines


def _listed(runs: list[int]) -> str:
    return ", ".join(str(run) for run in runs)
