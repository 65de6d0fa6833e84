"""The training run's games, task by task: a task delivered twice stores one game, a task for a
run that moved on stores nothing, and the positions a game records for training are what its
mover saw, never a card hidden from it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from games.bots import determinize
from games.bots.duel.determinize import DuelDeterminizer
from games.bots.learning import selfplay
from games.bots.learning.network import initial
from games.engine import Action, State
from training import tasks
from training.games import expert_of
from training.models import GateGame, RunStatus, SelfPlayGame, TrainingRun
from training.playing import champion_player, selfplay_seed

pytestmark = pytest.mark.django_db

BLIND_RESERVES = {"splendor": (1, 2), "duel": (1, 1)}
"""(run seed, search iterations) whose game 0 between search bots holds a card reserved blind
from a deck: an opponent's hidden reserve in 17 of the base game's 59 positions (from the 25th),
in 36 of the Duel's 99 (from the 42nd). Encoded with what the opponent knows instead of the
mover, 16 of the base game's positions change from one deal of the unseen cards to another."""


def a_run(variant: str = "splendor", *, seed: int = 1, iterations: int = 2, **fields: Any) -> Any:
    return TrainingRun.objects.create(
        variant=variant,
        seats=2,
        seed=seed,
        settings={"iterations": iterations},
        champion="search bot",
        **fields,
    )


def test_a_redelivered_selfplay_task_stores_the_game_once() -> None:
    run = a_run()

    assert tasks.play_selfplay_game(run.pk, 0) == "played"
    first = SelfPlayGame.objects.get(run=run, index=0)
    assert tasks.play_selfplay_game(run.pk, 0) == "played already"

    again = SelfPlayGame.objects.get(run=run, index=0)
    assert SelfPlayGame.objects.filter(run=run).count() == 1
    assert (again.pk, again.created_at, bytes(again.data)) == (
        first.pk,
        first.created_at,
        bytes(first.data),
    )


def test_a_redelivered_gate_task_stores_the_game_once() -> None:
    network = initial(expert_of("splendor").features, (8,), seed=3)
    run = a_run(status=RunStatus.GATING, candidate_network=network.to_bytes())

    assert tasks.play_gate_game(run.pk, 1) == "played"
    assert tasks.play_gate_game(run.pk, 1) == "played already"

    assert GateGame.objects.filter(run=run).count() == 1
    assert GateGame.objects.get(run=run).candidate_seat == 1


def test_a_task_for_a_run_that_moved_on_stores_nothing() -> None:
    fitting = a_run(status=RunStatus.FITTING)
    done = a_run(status=RunStatus.DONE)

    assert tasks.play_selfplay_game(fitting.pk, 0) == "not played: the run is fitting"
    assert tasks.play_gate_game(done.pk, 0) == "not played: the run is done"
    assert tasks.play_selfplay_game(10_000, 0) == "missing"
    assert not SelfPlayGame.objects.exists()
    assert not GateGame.objects.exists()


@pytest.mark.parametrize("variant", ["splendor", pytest.param("duel", marks=pytest.mark.slow)])
def test_the_recorded_positions_are_what_the_mover_saw(variant: str) -> None:
    """The game is played again from its seed, each mover's view kept: whatever the cards
    the mover could not see (an opponent's blind reserve, the decks), dealt at random, the
    position encodes to the row recorded."""
    seed, iterations = BLIND_RESERVES[variant]
    run = a_run(variant, seed=seed, iterations=iterations)
    assert tasks.play_selfplay_game(run.pk, 0) == "played"
    recorded, _ = selfplay.from_bytes(bytes(SelfPlayGame.objects.get(run=run).data))

    views: list[Mapping[str, Any]] = []
    champion = champion_player(run)

    def watched(view: Mapping[str, Any], move_seed: int) -> Action:
        views.append(view)
        return champion(view, move_seed)

    selfplay.play(variant, [watched, watched], selfplay_seed(seed, 0))

    assert len(views) == len(recorded)
    blind = [step for step, view in enumerate(views) if has_hidden_reserve(view)]
    assert blind, "the game must hold a card hidden from its mover"
    encode = expert_of(variant).seat_rows
    for view, rows in zip(views, recorded, strict=True):
        for guess in range(3):
            dealt = deal_unseen(variant, view, random.Random(guess))
            assert np.allclose(encode(dealt, view["viewer"]), rows)


def has_hidden_reserve(view: Mapping[str, Any]) -> bool:
    return any(card.get("hidden") for player in view["players"] for card in player["reserved"])


def deal_unseen(variant: str, view: Mapping[str, Any], rng: random.Random) -> State:
    """A whole position agreeing with everything ``view`` shows, the rest dealt from ``rng``."""
    if variant == "duel":
        return DuelDeterminizer(view).sample(rng)
    return determinize.sample_state(view, rng)
