"""Forking a Splendor Duel through the history service and the API, as for the base game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import engine
from games.commands import history as history_services
from games.commands import lobby
from games.commands.lobby import BotSeat, UserSeat
from games.commands.play import game_take_action
from games.errors import InvalidRequest, NotAllowed
from games.models import Game
from games.reads import loading, timeline
from games.store import records
from games.vocabulary import Status
from tests.finished_games import play


def finished_duel(alice: User, bob: User, seed: int) -> Game:
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=seed)  # fmt: skip
    finished = play(game, random.Random(seed))
    assert finished.status == Status.FINISHED
    return finished


def test_a_duel_fork_starts_from_exactly_the_position_with_its_origin_recorded(
    alice: User, bob: User, carol: User
) -> None:
    game = finished_duel(alice, bob, 31)
    step = 9
    seen = timeline.replay_step_for_viewer(game, carol, step)["state"]
    original = engine.initial_state(records.record_from_log(game).setup)  # type: ignore[arg-type]

    fork = history_services.game_fork(
        game_id=game.pk, step=step, user=carol, seats=[UserSeat(carol), BotSeat("greedy")]
    )

    assert fork.variant == "duel"
    assert fork.origin == {"kind": "fork", "game": game.pk, "step": step}
    state = loading.game_state(fork)
    assert state is not None
    assert engine.view(state, None, reveal=True) == seen
    assert state.decks != original.decks, "the decks must be reshuffled"
    assert state.bag_draws != original.bag_draws, "the bag's draw orders must be drawn afresh"
    setup = records.record_from_log(fork).setup
    assert setup is not None
    assert setup.position is not None


def test_a_running_duel_is_forked_by_spectators_only_and_without_hidden_cards(
    alice: User, bob: User, carol: User
) -> None:
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=44)  # fmt: skip
    state = loading.game_state(game)
    assert state is not None
    gold = next(a for a in engine.legal_actions(state) if a.__class__.__name__ == "TakeGold")
    mover = alice if state.current == 0 else bob
    for action in (engine.action_to_json(gold), {"type": "reserve_from_deck", "level": 3}):
        game = Game.objects.get(pk=game.pk)
        game_take_action(game_id=game.pk, action=action,
                         expected_version=game.version, user=mover)  # fmt: skip
    game = Game.objects.get(pk=game.pk)
    reserver = 0 if mover == alice else 1
    hidden = loading.game_state(game).players[reserver].reserved[0]  # type: ignore[union-attr]
    with pytest.raises(NotAllowed):
        history_services.game_fork(game_id=game.pk, step=2, user=alice,
                                   seats=[UserSeat(alice), BotSeat("random")])  # fmt: skip

    dealt = set()
    for _ in range(6):
        fork = history_services.game_fork(game_id=game.pk, step=2, user=carol,
                                          seats=[UserSeat(carol), BotSeat("random")])  # fmt: skip
        forked = loading.game_state(fork)
        dealt.add(forked.players[reserver].reserved[0])  # type: ignore[union-attr]
        created = fork.events.get(kind="GameCreated").payload
        shown = json.dumps(created["position"]["players"][reserver]["reserved"])
        assert '"hidden": true' in shown
        assert f'"id": {hidden}' not in shown
    assert len(dealt) > 1, "the blind reserve is dealt afresh, not copied"


def test_a_duel_fork_needs_two_seats_and_a_position_with_something_to_play(
    alice: User, bob: User, carol: User
) -> None:
    game = finished_duel(alice, bob, 33)
    with pytest.raises(InvalidRequest, match="2 seats"):
        history_services.game_fork(
            game_id=game.pk, step=3, user=carol,
            seats=[UserSeat(carol), BotSeat("random"), lobby.OpenSeat()],
        )  # fmt: skip
    last = timeline.game_timeline_for_viewer(game, None).last_step
    with pytest.raises(InvalidRequest, match="over"):
        history_services.game_fork(game_id=game.pk, step=last, user=carol,
                                   seats=[UserSeat(carol), BotSeat("random")])  # fmt: skip


def test_a_duel_is_forked_through_the_api_with_the_base_games_answers(
    alice: User, bob: User, carol: User, api_client_for: Any
) -> None:
    game = finished_duel(alice, bob, 35)
    client: APIClient = api_client_for(carol)
    url = f"/api/v1/games/{game.pk}/fork/"
    body = {"step": 5, "seats": [{"type": "user"}, {"type": "bot", "level": "greedy"}]}
    response = client.post(url, body, format="json")
    assert response.status_code == 201
    fork = Game.objects.get(pk=response.json()["id"])
    assert fork.variant == "duel"
    assert fork.origin == {"kind": "fork", "game": game.pk, "step": 5}
    three = {**body, "seats": [*body["seats"], {"type": "open"}]}
    assert client.post(url, three, format="json").status_code == 409
    assert client.post(url, {**body, "step": 10_000}, format="json").status_code == 404
