"""Finished games made quickly through the real services, for the history tests.

Moves are drawn at random from the legal ones, buying whenever a purchase is offered, so a
game ends in a few dozen moves; every move goes through ``game_take_action`` like a player's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser

from games import engine
from games.commands import lobby
from games.commands.lobby import SeatRequest, UserSeat
from games.commands.play import game_take_action
from games.models import Game, Seat
from games.reads import loading
from games.vocabulary import Status

MOVE_BOUND = 2000


def play(game: Game, rng: random.Random, *, moves: int = MOVE_BOUND) -> Game:
    """Play up to ``moves`` moves (to the end by default); returns the game as it is then."""
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        if game.status != Status.ACTIVE:
            return game
        state = loading.game_state(game)
        assert state is not None
        legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
        buys = [action for action in legal if action["type"] == "buy_card"]
        action = rng.choice(buys or legal)
        seat = Seat.objects.get(game=game, index=game.acting_seat)
        if seat.is_bot:
            game_take_action(
                game_id=game.pk, action=action, expected_version=game.version, as_bot=True
            )
        else:
            assert seat.user is not None
            game_take_action(
                game_id=game.pk, action=action, expected_version=game.version, user=seat.user
            )
    return Game.objects.get(pk=game.pk)


def finished_game(
    players: Sequence[AbstractBaseUser],
    seed: int,
    *,
    seats: Sequence[SeatRequest] | None = None,
    is_public: bool = True,
) -> Game:
    """A game of ``players`` (or the given ``seats``) played to its end from ``seed``."""
    game = lobby.game_create(
        variant="splendor",
        seats=list(seats) if seats is not None else [UserSeat(user) for user in players],
        created_by=players[0],
        seed=seed,
        is_public=is_public,
    )
    finished = play(game, random.Random(seed))
    assert finished.status == Status.FINISHED
    return finished
