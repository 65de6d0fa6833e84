"""Export then import, for random games of every variant the engine knows.

The games are played by the engine's own bots (random and greedy, from random seeds) and
stored through the services, as real games are; some end by a resignation. Whatever the game,
its export imports back into the same game: the same moves, the same result and the same
state at every step. A Splendor Duel file is also imported through the upload form and the API,
and one with an illegal step is refused there, naming that step, with nothing stored.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import engine, variants
from games.commands import history as history_services
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent
from games.reads import exports, loading, timeline
from games.vocabulary import Status

MOVE_BOUND = 1500
ILLEGAL_DUEL_ACTION = {"type": "choose_royal", "royal": 0}
"""Well formed, but out of its phase at the start of a turn: the engine refuses it."""


def bot_played_game(
    variant: str, users: list[User], levels: list[str], seed: int, resign_at: int | None = None
) -> Game:
    """A game of ``users``' seats, each move chosen by the bot of that seat's level from the
    seat's own view, and played through the services; the player to act resigns after
    ``resign_at`` moves if that comes first."""
    game = lobby.game_create(variant=variant, seats=[UserSeat(user) for user in users],
                             created_by=users[0], seed=seed)  # fmt: skip
    rng = random.Random(seed)
    for played in range(MOVE_BOUND):
        game = Game.objects.get(pk=game.pk)
        if game.status != Status.ACTIVE:
            return game
        state = loading.game_state(game)
        assert state is not None
        seat = engine.acting_seat(state)
        assert seat is not None
        if played == resign_at:
            play.game_resign(game_id=game.pk, user=users[seat])
            continue
        view = engine.view(state, seat)
        action = variants.choose_bot_action(levels[seat], view, seed=rng.getrandbits(32))
        play.game_take_action(game_id=game.pk, action=engine.action_to_json(action),
                              expected_version=game.version, user=users[seat])  # fmt: skip
    raise AssertionError(f"no end after {MOVE_BOUND} moves")


def every_state(game: Game) -> list[Any]:
    past = timeline.game_timeline_for_viewer(game, None)
    return [engine.state_to_json(state) for state in past.states]


def assert_imports_back(game: Game, importer: User) -> None:
    document = json.loads(json.dumps(exports.game_document_for_viewer(game, None)))
    copy_of = history_services.game_import(document=document, uploaded_by=importer)

    assert copy_of.origin == {"kind": "import"}
    assert copy_of.status == Status.FINISHED
    assert copy_of.result == game.result
    assert exports.game_document_for_viewer(copy_of, None)["moves"] == document["moves"]
    assert every_state(copy_of) == every_state(game)
    assert engine.state_to_json(loading.game_state(copy_of)) == engine.state_to_json(
        loading.game_state(game)
    )


SLOW_AND_SHARED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
"""Each example plays a whole game through the services; the users are shared by examples."""


@pytest.fixture
def players(make_user: Any) -> list[User]:
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


@pytest.mark.parametrize("variant", engine.VARIANTS)
@settings(max_examples=4, deadline=None, suppress_health_check=SLOW_AND_SHARED)
@given(data=st.data())
def test_a_random_bot_played_game_exports_and_imports_back_to_the_same_game(
    variant: str, players: list[User], data: st.DataObject
) -> None:
    seat_count = data.draw(st.sampled_from(engine.seat_counts(variant)), label="seats")
    # At least one greedy bot, so that the game ends in a few dozen moves.
    levels = ["greedy"] + [
        data.draw(st.sampled_from(["random", "greedy"]), label=f"seat {seat}")
        for seat in range(1, seat_count)
    ]
    seed = data.draw(st.integers(min_value=0, max_value=2**53), label="seed")
    resign_at = data.draw(st.none() | st.integers(min_value=0, max_value=40), label="resign at")
    game = bot_played_game(variant, players[:seat_count], levels, seed, resign_at)

    assert_imports_back(game, players[-1])


# Splendor Duel through the upload form and the API ----------------------------------------


@pytest.fixture
def duel(players: list[User]) -> Game:
    return bot_played_game("duel", players[:2], ["greedy", "random"], seed=2026)


def duel_document(game: Game) -> dict[str, Any]:
    return json.loads(json.dumps(exports.game_document_for_viewer(game, None)))


def with_illegal_step(document: dict[str, Any], index: int) -> dict[str, Any]:
    spoilt = copy.deepcopy(document)
    spoilt["moves"][index]["action"] = ILLEGAL_DUEL_ACTION
    return spoilt


def upload(client: Client, document: dict[str, Any]) -> Any:
    file = SimpleUploadedFile("duel.json", json.dumps(document).encode(), "application/json")
    return client.post("/games/import/", {"file": file, "is_public": "on"})


def test_a_duel_file_imports_through_the_upload_form(duel: Game, players: list[User]) -> None:
    client = Client()
    client.force_login(players[2])

    response = upload(client, duel_document(duel))

    assert response.status_code == 303
    copy_of = Game.objects.exclude(pk=duel.pk).get()
    assert response["Location"] == f"/games/{copy_of.pk}/replay/"
    assert (copy_of.variant, copy_of.origin, copy_of.result) == ("duel", {"kind": "import"},
                                                                 duel.result)  # fmt: skip
    assert every_state(copy_of) == every_state(duel)
    assert client.get(response["Location"]).status_code == 200


def test_a_duel_file_imports_through_the_api(duel: Game, players: list[User]) -> None:
    client = APIClient()
    client.force_authenticate(players[2])

    response = client.post("/api/v1/games/import/", duel_document(duel), format="json")

    assert response.status_code == 201
    assert response.json()["variant"] == "duel"
    copy_of = Game.objects.get(pk=response.json()["id"])
    assert copy_of.origin == {"kind": "import"}
    assert every_state(copy_of) == every_state(duel)


def test_a_duel_file_with_an_illegal_step_is_refused_by_the_form_and_the_api(
    duel: Game, players: list[User]
) -> None:
    spoilt = with_illegal_step(duel_document(duel), index=4)
    stored = (Game.objects.count(), GameEvent.objects.count())
    page_client = Client()
    page_client.force_login(players[2])
    api_client = APIClient()
    api_client.force_authenticate(players[2])

    page = upload(page_client, spoilt)
    api = api_client.post("/api/v1/games/import/", spoilt, format="json")

    assert page.status_code == 400
    assert "Step 5: " in page.content.decode()
    assert api.status_code == 400
    assert api.json()["error"]["code"] == "import_rejected"
    assert api.json()["error"]["message"].startswith("Step 5: ")
    assert (Game.objects.count(), GameEvent.objects.count()) == stored
