"""The per-process cache of decoded states (``games.store.state_cache``): a read gets the state its
own snapshot decodes to, whatever the cache holds, and what a viewer sees stays redacted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games import engine
from games.commands import lobby
from games.commands.writer import GameWriter
from games.models import Game
from games.reads import game_view, loading
from games.store import records, state_cache
from games.vocabulary import EventKind
from tests.games.helpers import act, reload
from tests.games.test_hidden_information import (
    SECRET_SEED,
    assert_nothing_private,
    hidden_from,
    start_secret_game,
)

pytestmark = pytest.mark.django_db

TAKE_THREE = {"type": "take_gems", "gems": ["white", "blue", "green"]}
TAKE_OTHER_THREE = {"type": "take_gems", "gems": ["red", "black", "green"]}


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    state_cache.clear()
    yield
    state_cache.clear()


def test_a_snapshot_read_twice_is_decoded_once(started_game: Game) -> None:
    game = reload(started_game)
    state_cache.clear()

    first = loading.game_state(game)
    again = loading.game_state(reload(game))

    assert first == engine.state_from_json(game.snapshot)
    assert again is first


def test_the_next_read_gets_the_state_the_action_folded(started_game: Game) -> None:
    before = loading.game_state(reload(started_game))

    act(started_game, TAKE_THREE)
    game = reload(started_game)
    after = loading.game_state(game)

    assert after != before
    assert after == engine.state_from_json(game.snapshot)
    assert after is records.record_from_rows(game).state  # from the cache: not decoded again


def test_an_entry_whose_snapshot_differs_from_the_read_one_is_never_served(
    started_game: Game, alice: User, bob: User
) -> None:
    game = reload(started_game)
    other = reload(
        lobby.game_create(
            variant="splendor",
            seats=[lobby.UserSeat(bob), lobby.UserSeat(alice)],
            created_by=bob,
            seed=SECRET_SEED + 1,
        )
    )
    assert other.snapshot != game.snapshot
    # Another game's state filed under this game's id and version (say, an id reused after
    # the database was reset): the snapshots differ, so it must not be taken for this one.
    wrong = engine.state_from_json(other.snapshot)
    state_cache.remember(game.pk, game.version, other.snapshot, wrong)

    state = loading.game_state(game)

    assert state == engine.state_from_json(game.snapshot)
    assert state != wrong


def write_then_fail(game_id: int, folded: list[engine.State | None]) -> None:
    """Append and save an action, as a request does, then fail before the commit."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        writer.append(EventKind.ACTION_TAKEN, {"action": TAKE_THREE}, seat=0)
        writer.save()
        folded.append(writer.record.state)
        raise RuntimeError("the request failed after the write")


def test_a_rolled_back_write_leaves_nothing_a_later_version_could_be_served_from(
    started_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = reload(started_game).version
    folded: list[engine.State | None] = []
    with pytest.raises(RuntimeError):
        write_then_fail(started_game.pk, folded)
    rolled_back = folded[0]

    # The same version, reached by another action in another worker, whose cache is its own.
    with monkeypatch.context() as elsewhere:
        elsewhere.setattr(state_cache, "remember", lambda *args: None)
        act(started_game, TAKE_OTHER_THREE)
    game = reload(started_game)
    state = loading.game_state(game)

    assert game.version == version + 1
    assert state == engine.state_from_json(game.snapshot)
    assert state != rolled_back


def test_the_cache_keeps_only_its_most_recently_used_entries(started_game: Game) -> None:
    game = reload(started_game)
    state = loading.game_state(game)
    for version in range(state_cache.MAX_ENTRIES + 10):
        state_cache.remember(-1, version, {"version": version}, state)  # type: ignore[arg-type]

    assert state_cache.size() == state_cache.MAX_ENTRIES
    assert loading.game_state(reload(game)) is not state  # evicted: decoded again


def test_views_read_through_the_cache_still_hide_what_each_viewer_may_not_see(
    alice: User, bob: User, carol: User
) -> None:
    game = start_secret_game(alice, bob)
    state = loading.game_state(game)  # the private state, now cached
    assert state is not None
    assert state_cache.size() > 0

    for seat, viewer in ((0, alice), (1, bob), (None, carol), (None, AnonymousUser())):
        view = game_view.game_view_for_viewer(reload(game), viewer)
        actions = game_view.game_legal_actions_for_viewer(reload(game), viewer)
        assert_nothing_private({"view": view, "actions": actions}, hidden_from(state, seat),
                               SECRET_SEED)  # fmt: skip
