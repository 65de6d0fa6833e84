"""What each viewer may see: redacted while the game runs, everything once it is over, and the
commitment published at the start matches the revealed setup. Private games stay hidden."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games import engine
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.errors import GameNotFound
from games.models import Game, GameEvent
from games.reads import game_view, loading
from games.records import projection
from games.store import records
from games.vocabulary import Status
from tests.games.helpers import act, reload
from tests.leaks import card_ids_shown, walk

pytestmark = pytest.mark.django_db

SECRET_SEED = 3_141_592_653_589  # distinctive digits, so a leak is easy to spot in a dump
PRIVATE_KEYS = {"seed", "salt", "setup", "decks_order", "deck_order"}


def viewers(alice: User, bob: User, carol: User) -> dict[str, Any]:
    return {"alice": alice, "bob": bob, "carol": carol, "anonymous": AnonymousUser(), "none": None}


def hidden_from(state: engine.State, seat: int | None) -> set[int]:
    """Cards ``seat`` must not learn: every card in a deck, every other player's blind reserve."""
    hidden = {card for deck in state.decks for card in deck}
    for index, player in enumerate(state.players):
        if index != seat:
            hidden |= set(player.blind)
    return hidden


def assert_nothing_private(dump_of: dict[str, Any], hidden: set[int], seed: int) -> None:
    dump = json.dumps(dump_of, sort_keys=True)
    leaked = card_ids_shown(dump_of) & hidden
    assert not leaked, f"hidden cards {sorted(leaked)} are shown"
    for card in hidden:  # the same, as a plain scan of the text
        assert f'"id": {card}, "level"' not in json.dumps(dump_of)
        assert not re.search(rf'"card": {card}\b', dump)
    keys = {key for key, _ in walk(dump_of) if key is not None}
    assert not keys & PRIVATE_KEYS, f"private keys {keys & PRIVATE_KEYS} are present"
    assert f'"seed": {seed}' not in dump
    assert str(seed) not in dump


def start_secret_game(alice: User, bob: User, *, is_public: bool = True) -> Game:
    game = lobby.game_create(
        variant="splendor",
        seats=[UserSeat(alice), UserSeat(bob)],
        created_by=alice,
        seed=SECRET_SEED,
        is_public=is_public,
    )
    # Both players reserve a card unseen from a deck, so each holds a secret from the other.
    act(game, {"type": "reserve_from_deck", "level": 1})
    act(game, {"type": "reserve_from_deck", "level": 3})
    return reload(game)


def test_views_and_histories_hide_decks_others_blind_reserves_and_the_seed_while_running(
    alice: User, bob: User, carol: User
) -> None:
    game = start_secret_game(alice, bob)
    rng = random.Random(4)
    checked = 0
    for _ in range(25):
        if game.status != Status.ACTIVE:
            break
        state = loading.game_state(game)
        assert state is not None
        for name, viewer in viewers(alice, bob, carol).items():
            seat = {"alice": 0, "bob": 1}.get(name)
            view = game_view.game_view_for_viewer(game, viewer)
            events = game_view.game_events_for_viewer(game, viewer)
            hidden = hidden_from(state, seat)
            assert_nothing_private({"view": view, "events": events}, hidden, SECRET_SEED)
            assert "revealed" not in view
            assert view["viewer_seat"] == seat
            assert view["state"]["decks"] == [len(deck) for deck in state.decks]
            checked += 1
        game = reload(game)
        act(game, engine.action_to_json(rng.choice(engine.legal_actions(state))))
        game = reload(game)
    assert checked >= 50


def test_a_player_sees_their_own_blind_reserve_and_only_the_level_of_the_others(
    alice: User, bob: User, carol: User
) -> None:
    game = start_secret_game(alice, bob)
    state = loading.game_state(game)
    assert state is not None
    (alices_card,) = state.players[0].blind
    (bobs_card,) = state.players[1].blind

    alice_view = game_view.game_view_for_viewer(game, alice)["state"]
    bob_view = game_view.game_view_for_viewer(game, bob)["state"]
    carol_view = game_view.game_view_for_viewer(game, carol)["state"]

    assert [card["id"] for card in alice_view["players"][0]["reserved"]] == [alices_card]
    assert alice_view["players"][1]["reserved"] == [{"hidden": True, "level": 3}]
    assert bob_view["players"][0]["reserved"] == [{"hidden": True, "level": 1}]
    assert [card["id"] for card in bob_view["players"][1]["reserved"]] == [bobs_card]
    assert carol_view["players"][0]["reserved"] == [{"hidden": True, "level": 1}]
    assert carol_view["players"][1]["reserved"] == [{"hidden": True, "level": 3}]


def test_the_running_history_publishes_the_commitment_but_not_the_setup_or_salt(
    alice: User, bob: User
) -> None:
    game = start_secret_game(alice, bob)

    events = game_view.game_events_for_viewer(game, bob)

    started = [event for event in events if event["kind"] == "GameStarted"]
    assert len(started) == 1
    assert started[0]["payload"] == {"commitment": game.commitment}
    assert [event["seq"] for event in events] == list(range(1, game.version + 1))
    # The stored event itself keeps everything.
    stored = GameEvent.objects.get(game=game, kind="GameStarted").payload
    assert stored["setup"]["seed"] == SECRET_SEED
    assert stored["salt"]


def test_the_history_can_be_read_in_pages(alice: User, bob: User) -> None:
    game = start_secret_game(alice, bob)

    page = game_view.game_events_for_viewer(game, alice, after_seq=2, limit=3)

    assert [event["seq"] for event in page] == [3, 4, 5]


def test_legal_actions_are_offered_only_to_the_player_whose_turn_it_is(
    alice: User, bob: User, carol: User
) -> None:
    game = start_secret_game(alice, bob)
    state = loading.game_state(game)
    assert state is not None
    expected = [engine.action_to_json(action) for action in engine.legal_actions(state)]

    assert game.acting_seat == 0
    assert game_view.game_legal_actions_for_viewer(game, alice) == expected
    assert game_view.game_view_for_viewer(game, alice)["legal_actions"] == expected
    for viewer in (bob, carol, AnonymousUser(), None):
        assert game_view.game_legal_actions_for_viewer(game, viewer) == []
        assert game_view.game_view_for_viewer(game, viewer)["legal_actions"] == []


@pytest.mark.parametrize("ending", ["resigned", "aborted", "played out"])
def test_a_game_that_is_over_reveals_its_setup_and_salt_matching_the_published_commitment(
    alice: User, bob: User, carol: User, staff: User, ending: str
) -> None:
    game = start_secret_game(alice, bob)
    published = game_view.game_view_for_viewer(game, carol)["commitment"]
    assert published == game.commitment
    assert len(published) == 64
    real_setup = engine.setup_to_json(records.record_from_log(game).setup)
    if ending == "resigned":
        play.game_resign(game_id=game.pk, user=bob)
    elif ending == "aborted":
        lobby.game_abort(game_id=game.pk, by_user=staff)
    else:
        rng = random.Random(2)
        while game.status == Status.ACTIVE:
            state = loading.game_state(game)
            act(game, engine.action_to_json(rng.choice(engine.legal_actions(state))))
            game = reload(game)
    game = reload(game)
    assert not game.is_running

    for viewer in viewers(alice, bob, carol).values():
        view = game_view.game_view_for_viewer(game, viewer)
        revealed = view["revealed"]
        assert revealed["setup"] == real_setup
        assert revealed["setup"]["seed"] == SECRET_SEED
        assert revealed["commitment"] == published == view["commitment"]
        assert projection.commitment_for(revealed["setup"], revealed["salt"]) == published
        assert revealed["final_state"] == engine.state_to_json(loading.game_state(game))
        # Once over, the blind reserves are revealed in the final state.
        final = loading.game_state(game)
        assert revealed["final_state"]["players"][1]["blind"] == list(final.players[1].blind)
        started = next(
            event
            for event in game_view.game_events_for_viewer(game, viewer)
            if event["kind"] == "GameStarted"
        )
        assert started["payload"]["setup"] == real_setup
        assert (
            projection.commitment_for(started["payload"]["setup"], started["payload"]["salt"])
            == published
        )


def test_the_commitment_is_the_sha256_of_the_setup_and_salt_in_canonical_json() -> None:
    import hashlib

    setup = {"variant": "splendor", "players": 2, "seed": 1, "decks": [[1, 2]], "nobles": [3]}

    digest = projection.commitment_for(setup, "abc")

    canonical = json.dumps({"salt": "abc", "setup": setup}, sort_keys=True, separators=(",", ":"))
    assert digest == hashlib.sha256(canonical.encode()).hexdigest()
    assert digest != projection.commitment_for(setup, "abd")


def test_a_private_game_is_hidden_from_everyone_but_its_players_and_staff(
    alice: User, bob: User, carol: User, staff: User
) -> None:
    game = start_secret_game(alice, bob, is_public=False)

    for outsider in (carol, AnonymousUser(), None):
        with pytest.raises(GameNotFound, match=f"There is no game {game.pk}"):
            game_view.game_view_for_viewer(game, outsider)
        with pytest.raises(GameNotFound):
            game_view.game_events_for_viewer(game, outsider)
    for insider in (alice, bob, staff):
        assert game_view.game_view_for_viewer(game, insider)["id"] == game.pk
        assert game_view.game_events_for_viewer(game, insider)


def test_a_public_game_is_open_to_spectators(alice: User, bob: User, carol: User) -> None:
    game = start_secret_game(alice, bob)

    view = game_view.game_view_for_viewer(game, AnonymousUser())

    assert view["viewer_seat"] is None
    assert view["state"]["viewer"] is None
    assert [seat["display_name"] for seat in view["seats"]] == ["alice", "bob"]


@pytest.mark.parametrize("game_id", [987654, "nonsense", None])
def test_an_unknown_game_is_not_found(game_id: Any) -> None:
    with pytest.raises(GameNotFound):
        loading.game_get(game_id)
