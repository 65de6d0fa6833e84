"""A game's past: every step rebuilt by the engine, exported, imported again, and forked."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import engine
from games.commands import history as history_services
from games.commands import lobby
from games.commands.lobby import BotSeat, UserSeat
from games.commands.play import game_take_action
from games.errors import GameNotFound, GameNotOver, ImportRejected, InvalidRequest, NotAllowed
from games.models import Game, GameEvent
from games.reads import exports, loading, timeline
from games.store import records
from games.vocabulary import Status
from tests.finished_games import finished_game, play
from tests.leaks import walk


def _states(game: Game) -> list[engine.State]:
    """The private state at every step, straight from the engine (step 0: the deal)."""
    record = records.record_from_log(game)
    assert record.setup is not None
    states = [engine.initial_state(record.setup)]
    for event in game.events.filter(seq__gt=_start_seq(game)).order_by("seq"):
        state = states[-1]
        if event.kind == "ActionTaken":
            state = engine.apply_action(
                state, engine.action_from_json(event.payload["action"], game.variant)
            )
        states.append(state)
    return states


def _start_seq(game: Game) -> int:
    return int(game.events.get(kind="GameStarted").seq)


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 2)])
def test_export_then_import_reproduces_every_state(
    seed: int, players: int, alice: User, bob: User, carol: User, make_user: Any
) -> None:
    users = [alice, bob, carol, make_user("dave")][:players]
    game = finished_game(users, seed)

    document = exports.game_document_for_viewer(game, None)
    copy_of = history_services.game_import(document=json.loads(json.dumps(document)),
                                           uploaded_by=bob)  # fmt: skip

    assert copy_of.is_imported
    assert copy_of.origin == {"kind": "import"}
    assert copy_of.status == Status.FINISHED
    assert copy_of.result == game.result
    assert [engine.state_to_json(s) for s in _states(copy_of)] == [
        engine.state_to_json(s) for s in _states(game)
    ]
    again = exports.game_document_for_viewer(copy_of, None)
    assert again["moves"] == document["moves"]
    assert again["setup"] == document["setup"]


@pytest.mark.parametrize("viewer_name", ["alice", "bob", "spectator"])
def test_the_replay_at_step_n_is_the_engines_state_after_n_events_seen_by_that_viewer(
    viewer_name: str, alice: User, bob: User, carol: User
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=99)  # fmt: skip
    game = play(game, random.Random(5), moves=30)
    assert game.status == Status.ACTIVE
    viewer = {"alice": alice, "bob": bob, "spectator": carol}[viewer_name]
    seat = {"alice": 0, "bob": 1, "spectator": None}[viewer_name]
    states = _states(game)
    for step in (0, 1, 7, len(states) - 1):
        data = timeline.replay_step_for_viewer(game, viewer, step)
        assert data["state"] == engine.view(states[step], seat)
    with pytest.raises(GameNotFound):
        timeline.replay_step_for_viewer(game, viewer, len(states))

    game = play(game, random.Random(6))
    states = _states(game)
    for step in (0, 12, len(states) - 1):
        data = timeline.replay_step_for_viewer(game, viewer, step)
        assert data["state"] == engine.view(states[step], seat, reveal=True)


def test_a_step_of_a_private_game_is_the_same_404_as_a_missing_game(
    alice: User, bob: User, carol: User
) -> None:
    game = finished_game([alice, bob], 8, is_public=False)
    assert timeline.replay_step_for_viewer(game, bob, 3)["step"] == 3
    for viewer, step in ((carol, 3), (None, 3), (carol, 10_000)):
        with pytest.raises(GameNotFound, match=f"There is no game {game.pk}."):
            timeline.replay_step_for_viewer(game, viewer, step)
    # One who may see the game is told which steps it has, not that it is missing.
    last = timeline.replay_step_for_viewer(game, bob, 0)["last_step"]
    for step in (-1, 10_000):
        with pytest.raises(GameNotFound, match=f"to {last}, the last one"):
            timeline.replay_step_for_viewer(game, alice, step)


def test_a_nobles_automatic_visit_has_its_own_words(alice: User, bob: User) -> None:
    for seed in range(10, 40):
        game = finished_game([alice, bob], seed)
        events = timeline.game_events_in_words(game, None)
        visits = [event for event in events if event["consequences"]]
        if visits:
            break
    else:
        pytest.fail("no game of these seeds had a noble's visit")
    visit = visits[0]
    name = ["alice", "bob"][visit["consequences"][0]["seat"]]
    assert visit["text"].endswith(f"{name} was visited by a noble: +3.")
    assert visit["payload"]["action"]["type"] != "choose_noble"


def _document(alice: User, bob: User) -> dict[str, Any]:
    return exports.game_document_for_viewer(finished_game([alice, bob], 12), None)


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (
            lambda d: d["moves"].__setitem__(
                4, {"seat": d["moves"][4]["seat"], "action": {"type": "reserve_card", "card": 999}}
            ),
            "Step 5: ",
        ),
        (
            lambda d: d["moves"].__setitem__(
                2, {**d["moves"][2], "seat": 1 - d["moves"][2]["seat"]}
            ),
            "Step 3: it is seat",
        ),
        (lambda d: d.__setitem__("moves", d["moves"][:-3]), "ends before the game is over"),
        (lambda d: d["result"].__setitem__("winners", [9]), "the file says the result is"),
        (lambda d: d.__setitem__("variant", "chess"), "Unknown variant 'chess'"),
        (lambda d: d["setup"]["decks"][0].pop(), "Step 0 (the setup)"),
        (lambda d: d.__setitem__("moves", "all of them"), "moves must be a list"),
    ],
)
def test_a_file_that_does_not_replay_is_refused_naming_the_first_bad_step(
    spoil: Any, message: str, alice: User, bob: User
) -> None:
    document = _document(alice, bob)
    spoilt = copy.deepcopy(document)
    spoil(spoilt)
    games, events = Game.objects.count(), GameEvent.objects.count()

    with pytest.raises(ImportRejected, match=message.replace("(", r"\(").replace(")", r"\)")):
        history_services.game_import(document=spoilt, uploaded_by=alice)

    assert (Game.objects.count(), GameEvent.objects.count()) == (games, events)


def test_a_running_game_exports_only_to_staff_and_without_its_setup(
    alice: User, bob: User, staff: User
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=2**51 + 12345)  # fmt: skip
    game = play(game, random.Random(3), moves=10)
    for viewer in (alice, bob, None):
        with pytest.raises(GameNotOver, match="once it is over"):
            exports.exportable_game(game.pk, viewer)
    exported = exports.exportable_game(game.pk, staff)
    document = exports.game_document_for_viewer(exported, staff)
    assert document["setup"] is None
    assert document["salt"] is None
    assert len(document["moves"]) == 10
    assert str(2**51 + 12345) not in json.dumps(document)
    assert {key for key, _ in walk(document)}.isdisjoint({"seed", "decks"})


def test_the_text_log_has_every_step_in_words(alice: User, bob: User) -> None:
    game = finished_game([alice, bob], 21)
    text = exports.game_text_for_viewer(game, None)
    assert text.startswith(f"Splendor Online game {game.pk} (splendor)")
    assert "0. The game started" in text
    assert "The game is over: " in text
    assert text.count("\n") > game.version - _start_seq(game)


def test_a_fork_starts_from_exactly_the_position_with_its_origin_recorded(
    alice: User, bob: User, carol: User
) -> None:
    game = finished_game([alice, bob], 31)
    step = 9
    seen = timeline.replay_step_for_viewer(game, carol, step)["state"]

    fork = history_services.game_fork(
        game_id=game.pk, step=step, user=carol, seats=[UserSeat(carol), BotSeat("greedy")]
    )

    assert fork.is_forked
    assert fork.origin == {"kind": "fork", "game": game.pk, "step": step}
    state = loading.game_state(fork)
    assert state is not None
    assert engine.view(state, None, reveal=True) == seen
    assert state.decks != _states(game)[step].decks, "the decks must be reshuffled"
    setup = records.record_from_log(fork).setup
    assert setup is not None
    assert setup.position is not None


def test_a_fork_with_an_open_seat_starts_from_the_position_when_a_friend_joins(
    alice: User, bob: User, carol: User, make_user: Any
) -> None:
    game = finished_game([alice, bob], 32)
    seen = timeline.replay_step_for_viewer(game, None, 6)["state"]
    fork = history_services.game_fork(
        game_id=game.pk, step=6, user=carol, seats=[UserSeat(carol), lobby.OpenSeat()]
    )
    assert fork.status == Status.WAITING
    lobby.game_take_seat(game_id=fork.pk, user=make_user("dave"))
    state = loading.game_state(Game.objects.get(pk=fork.pk))
    assert state is not None
    assert engine.view(state, None, reveal=True) == seen


def test_a_running_game_is_forked_by_spectators_only_and_without_hidden_cards(
    alice: User, bob: User, carol: User
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=44)  # fmt: skip
    game_take_action(game_id=game.pk, action={"type": "reserve_from_deck", "level": 3},
                     expected_version=game.version, user=alice)  # fmt: skip
    game = Game.objects.get(pk=game.pk)
    hidden = loading.game_state(game).players[0].reserved[0]  # type: ignore[union-attr]
    with pytest.raises(NotAllowed):
        history_services.game_fork(game_id=game.pk, step=1, user=alice,
                                   seats=[UserSeat(alice), BotSeat("random")])  # fmt: skip

    dealt = set()
    for _ in range(6):
        fork = history_services.game_fork(game_id=game.pk, step=1, user=carol,
                                          seats=[UserSeat(carol), BotSeat("random")])  # fmt: skip
        dealt.add(loading.game_state(fork).players[0].reserved[0])  # type: ignore[union-attr]
        created = fork.events.get(kind="GameCreated").payload
        assert str(hidden) not in json.dumps(created["position"]["players"][0]["reserved"])
    assert len(dealt) > 1, "the blind reserve is dealt afresh, not copied"


def test_a_fork_from_the_last_step_is_refused(alice: User, bob: User) -> None:
    game = finished_game([alice, bob], 33)
    last = timeline.game_timeline_for_viewer(game, None).last_step
    with pytest.raises(InvalidRequest, match="over"):
        history_services.game_fork(game_id=game.pk, step=last, user=alice,
                                   seats=[UserSeat(alice), BotSeat("random")])  # fmt: skip
