"""The words of a game's past are kept per version of the game: never stale, never secret."""

from __future__ import annotations

import pickle
import random

from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from games import engine
from games.commands import lobby
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import loading, timeline
from tests.finished_games import finished_game, play

SEED = 2**51 + 4321


def _running_game(alice: User, bob: User, moves: int) -> Game:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=SEED)  # fmt: skip
    return play(game, random.Random(7), moves=moves)


def test_a_running_games_cached_words_hold_neither_its_seed_nor_its_decks(
    alice: User, bob: User
) -> None:
    game = _running_game(alice, bob, moves=6)
    past = timeline.game_timeline_for_viewer(game, alice)
    assert past.state_at(past.last_step) == loading.game_state(game)

    cached = cache.get(past.log_key)
    assert cached is not None
    assert cached.setup is None
    stored = pickle.dumps(cached)
    assert str(SEED).encode() not in stored
    assert b"decks" not in stored
    assert b"salt" not in stored


def test_a_new_move_is_a_new_version_and_the_replay_has_its_step(alice: User, bob: User) -> None:
    game = _running_game(alice, bob, moves=4)
    before = timeline.game_timeline_for_viewer(game, bob)
    game = play(game, random.Random(8), moves=1)
    after = timeline.game_timeline_for_viewer(game, bob)

    assert after.log_key != before.log_key
    assert after.last_step == before.last_step + 1
    assert after.view_at(after.last_step) == engine.view(loading.game_state(game), 1)
    page = Client().get(f"/games/{game.pk}/replay/?step={after.last_step}")
    assert page.status_code == 200
    assert after.step_event(after.last_step)["text"] in page.content.decode()


def test_the_finished_games_words_are_the_same_from_the_cache_as_worked_out_afresh(
    alice: User, bob: User
) -> None:
    game = finished_game([alice, bob], 31)
    first = timeline.game_timeline_for_viewer(game, None)
    cache.delete(first.log_key)
    fresh = timeline.game_timeline_for_viewer(game, None)
    cached = timeline.game_timeline_for_viewer(game, alice)

    assert cached.events == fresh.events
    assert [cached.state_at(n) for n in range(cached.last_step + 1)] == fresh.states
    assert fresh.revealed() == {
        key: game.events.get(kind="GameStarted").payload[key]
        for key in ("setup", "salt", "commitment")
    }


def test_the_replay_page_marks_the_step_shown_in_the_cached_move_list(
    alice: User, bob: User
) -> None:
    game = finished_game([alice, bob], 32)
    client = Client()
    for step in (3, 5):
        page = client.get(f"/games/{game.pk}/replay/?step={step}").content.decode()
        assert page.count('aria-current="step"') == 1
        assert f'data-step="{step}" aria-current="step"' in page
