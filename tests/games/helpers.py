"""Small helpers for the event store tests: playing through the services and checking the log."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games import engine
from games.commands import play
from games.commands.integrity import read_model_differences
from games.models import Game, GameEvent, Seat
from games.reads import loading
from games.vocabulary import Status


def reload(game: Game | int) -> Game:
    return Game.objects.get(pk=game if isinstance(game, int) else game.pk)


def seqs(game: Game | int) -> list[int]:
    game_id = game if isinstance(game, int) else game.pk
    return list(
        GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("seq", flat=True)
    )


def kinds(game: Game | int) -> list[str]:
    game_id = game if isinstance(game, int) else game.pk
    return list(
        GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("kind", flat=True)
    )


def footprint(game: Game | int) -> tuple[int, int]:
    """(version, number of events): what a refusal must leave as it was."""
    fresh = reload(game)
    return fresh.version, GameEvent.objects.filter(game=fresh).count()


def assert_consistent(game: Game | int) -> None:
    """The log is gap-free from 1 and the read models equal a full replay."""
    fresh = reload(game)
    assert seqs(fresh) == list(range(1, fresh.version + 1))
    assert read_model_differences(fresh) == []


def user_at(game: Game, seat: int) -> AbstractBaseUser:
    occupant = Seat.objects.select_related("user").get(game=game, index=seat)
    assert occupant.user is not None, f"seat {seat} has no user"
    return occupant.user


def act(
    game: Game | int,
    action: Mapping[str, Any],
    *,
    user: AbstractBaseUser | None = None,
    idempotency_key: str | None = None,
) -> play.ActionResult:
    """Play ``action`` for the seat to act (its user unless given), at the current version."""
    fresh = reload(game)
    assert fresh.acting_seat is not None
    seat = Seat.objects.get(game=fresh, index=fresh.acting_seat)
    if user is None and seat.is_bot:
        return play.game_take_action(
            game_id=fresh.pk, action=action, expected_version=fresh.version, as_bot=True
        )
    return play.game_take_action(
        game_id=fresh.pk,
        action=action,
        expected_version=fresh.version,
        user=user or user_at(fresh, fresh.acting_seat),
        idempotency_key=idempotency_key,
    )


def random_legal_action(game: Game, rng: random.Random) -> dict[str, Any]:
    state = loading.game_state(game)
    assert state is not None
    return engine.action_to_json(rng.choice(engine.legal_actions(state)))


def play_random(game: Game | int, moves: int, *, seed: int = 0) -> Game:
    """Play up to ``moves`` random legal actions through the services (fewer if it ends)."""
    rng = random.Random(seed)
    fresh = reload(game)
    for _ in range(moves):
        if fresh.status != Status.ACTIVE:
            break
        act(fresh, random_legal_action(fresh, rng))
        fresh = reload(fresh)
    return fresh


def play_to_end(game: Game | int, *, seed: int = 0) -> Game:
    fresh = play_random(game, 1000, seed=seed)
    assert fresh.status == Status.FINISHED
    return fresh
