"""The games a training run plays on the workers: self-play games and the gate's match games.

The bodies of ``training.tasks``. Each game is one task, named by its run and index, and stores
one row; a task delivered twice, or late (its run has moved on), stores nothing more. A game's
seed comes from the run's seed and its index alone, so a run repeats exactly from its seed
(``selfplay_seed``, ``gate_seed``; every move's seed from the game's, by ``selfplay.play``).

The bots see only their own views; the positions recorded for training are encoded with the
mover as the observer (the game's ``seat_rows``), so they hold nothing the mover could not see.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

import games.variants
from games.bots.learning import gate, selfplay
from games.bots.learning.network import ValueNetwork, from_bytes
from games.bots.learning.selfplay import Player
from games.engine import Action
from training.games import expert_of
from training.models import GateGame, RunStatus, SelfPlayGame, TrainingRun

SEEDS_PER_RUN = 1_000_000
GATE_SEED_OFFSET = 500_000
"""Self-play game ``i`` of a run of seed ``s`` is dealt from ``s × 1,000,000 + i``; the gate's
``d``-th deal from ``s × 1,000,000 + 500,000 + d``: apart while a run plays under 500,000 games."""


def selfplay_seed(run_seed: int, index: int) -> int:
    return run_seed * SEEDS_PER_RUN + index


def gate_seed(run_seed: int, deal: int) -> int:
    return run_seed * SEEDS_PER_RUN + GATE_SEED_OFFSET + deal


def play_selfplay_game(run_id: int, index: int) -> str:
    """Play self-play game ``index`` of the run, the champion at every seat, and store it."""
    run = TrainingRun.objects.filter(pk=run_id).first()
    if run is None:
        return "missing"
    if run.status != RunStatus.SELF_PLAY:
        return f"not played: the run is {run.status}"
    if SelfPlayGame.objects.filter(run=run, index=index).exists():
        return "played already"
    seed = selfplay_seed(run.seed, index)
    player = champion_player(run)
    started = time.thread_time()
    played = selfplay.play(
        run.variant, [player] * run.seats, seed, expert_of(run.variant).seat_rows
    )
    cpu_seconds = time.thread_time() - started
    _, created = SelfPlayGame.objects.get_or_create(
        run=run,
        index=index,
        defaults={
            "seed": seed,
            "data": played.to_bytes(),
            "actions": played.actions,
            "positions": len(played.rows),
            "cpu_seconds": round(cpu_seconds, 3),
        },
    )
    return "played" if created else "played already"


def play_gate_game(run_id: int, index: int) -> str:
    """Play game ``index`` of the run's gate, its candidate against its champion, and store
    the candidate's score."""
    run = TrainingRun.objects.filter(pk=run_id).first()
    if run is None:
        return "missing"
    if run.status != RunStatus.GATING or run.candidate_network is None:
        return f"not played: the run is {run.status}"
    if GateGame.objects.filter(run=run, index=index).exists():
        return "played already"
    iterations = int(run.settings["iterations"])
    candidate = expert_player(run.variant, from_bytes(bytes(run.candidate_network)), iterations)
    seed = gate_seed(run.seed, gate.deal_of(index, run.seats))
    started = time.thread_time()
    game = gate.play_match_game(
        run.variant, candidate, champion_player(run), seats=run.seats, index=index, seed=seed
    )
    cpu_seconds = time.thread_time() - started
    _, created = GateGame.objects.get_or_create(
        run=run,
        index=index,
        defaults={
            "seed": seed,
            "candidate_seat": game.candidate_seat,
            "candidate_score": game.score,
            "actions": game.actions,
            "cpu_seconds": round(cpu_seconds, 3),
        },
    )
    return "played" if created else "played already"


def champion_player(run: TrainingRun) -> Player:
    """The bot the run challenges: the network installed when it began, else the search bot."""
    iterations = int(run.settings["iterations"])
    if run.champion_network is None:
        return search_player(iterations)
    return expert_player(run.variant, from_bytes(bytes(run.champion_network)), iterations)


def expert_player(variant: str, network: ValueNetwork, iterations: int) -> Player:
    choose = expert_of(variant).choose

    def play(view: Mapping[str, Any], seed: int) -> Action:
        return choose(view, random.Random(seed), network=network, iterations=iterations)

    return play


def search_player(iterations: int) -> Player:
    def play(view: Mapping[str, Any], seed: int) -> Action:
        return games.variants.choose_bot_action("search", view, seed=seed, iterations=iterations)

    return play
