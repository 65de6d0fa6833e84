"""Playing through ``play.game_take_action``: appends, refusals that write nothing, expected
versions, idempotency keys and the hooks that run after commit."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine
from games.commands import after_commit, lobby, play
from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from games.errors import (
    GameError,
    GameNotFound,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    StaleVersion,
)
from games.models import Game, GameEvent, IdempotencyRecord
from games.reads import loading
from games.records import projection
from games.records.record import Event
from games.store import records
from games.vocabulary import Status
from tests.games.helpers import act, assert_consistent, footprint, kinds, reload

TAKE_THREE = {"type": "take_gems", "gems": ["white", "blue", "green"]}
TAKE_OTHER_THREE = {"type": "take_gems", "gems": ["red", "black", "white"]}


def first_board_card(game: Game) -> int:
    state = loading.game_state(game)
    assert state is not None
    card = state.board[0][0]
    assert card is not None
    return card


# Accepted actions ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_accepted_action_appends_one_event_and_updates_version_snapshot_and_turn(
    started_game: Game, alice: User
) -> None:
    version = started_game.version

    result = play.game_take_action(
        game_id=started_game.pk, action=TAKE_THREE, expected_version=version, user=alice
    )

    game = reload(started_game)
    # Bob moves next: alice's answer carries no actions of his.
    assert result == play.ActionResult(game.pk, version + 1, (version + 1,), 1, ())
    event = GameEvent.objects.get(game=game, seq=version + 1)
    assert (event.kind, event.seat, event.actor_id) == ("ActionTaken", 0, alice.pk)
    assert event.payload == {"action": TAKE_THREE}
    assert event.schema_version == 1
    assert game.version == game.snapshot_version == version + 1
    assert game.acting_seat == 1
    assert engine.state_from_json(game.snapshot).players[0].tokens[:3] == (1, 1, 1)
    assert_consistent(game)


@pytest.mark.django_db
def test_a_bot_seat_acts_with_as_bot_and_without_a_user(alice: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[BotSeat("random"), UserSeat(alice)], created_by=alice, seed=9
    )

    result = play.game_take_action(
        game_id=game.pk, action=TAKE_THREE, expected_version=game.version, as_bot=True
    )

    event = GameEvent.objects.get(game=game, seq=result.version)
    assert (event.seat, event.actor_id) == (0, None)
    assert_consistent(game)


@pytest.mark.django_db
def test_a_user_cannot_act_for_a_bot_and_as_bot_is_refused_on_a_users_turn(
    alice: User,
) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), BotSeat("random")], created_by=alice, seed=9
    )
    before = footprint(game)

    with pytest.raises(NotAllowed, match="not a bot's turn"):
        play.game_take_action(
            game_id=game.pk, action=TAKE_THREE, expected_version=game.version, as_bot=True
        )

    assert footprint(game) == before


@pytest.mark.django_db
def test_an_action_that_ends_the_game_appends_game_finished_in_the_same_result(
    started_game: Game, alice: User
) -> None:
    # Play random legal actions until the last one, which must append two events at once.
    import random

    rng = random.Random(1)
    game = reload(started_game)
    result = None
    while game.status == Status.ACTIVE:
        state = loading.game_state(game)
        assert state is not None
        result = act(game, engine.action_to_json(rng.choice(engine.legal_actions(state))))
        game = reload(game)

    assert result is not None
    assert result.events == (result.version - 1, result.version)
    assert kinds(game)[-2:] == ["ActionTaken", "GameFinished"]
    assert game.result is not None
    assert game.result["winners"]
    assert game.acting_seat is None
    assert_consistent(game)


# Refusals write nothing ----------------------------------------------------------------------


def refused(game: Game, error: type[GameError], **request: Any) -> GameError:
    """Send the request, expect ``error``, and check the game did not change at all."""
    before = footprint(game)
    request.setdefault("game_id", game.pk)
    request.setdefault("expected_version", reload(game).version)
    with pytest.raises(error) as caught:
        play.game_take_action(**request)
    assert footprint(game) == before
    assert caught.value.message
    assert str(caught.value) == caught.value.message
    assert_consistent(game)
    return caught.value


@pytest.mark.django_db
def test_an_illegal_action_is_refused_with_the_engines_reason(
    started_game: Game, alice: User
) -> None:
    card = first_board_card(started_game)

    error = refused(
        started_game, IllegalMove, user=alice, action={"type": "buy_card", "card": card}
    )

    assert error.code == "illegal_action"
    assert "afford" in error.message.lower() or "cannot" in error.message.lower()


@pytest.mark.django_db
def test_taking_four_gems_is_refused_as_illegal(started_game: Game, alice: User) -> None:
    refused(
        started_game,
        IllegalMove,
        user=alice,
        action={"type": "take_gems", "gems": ["white", "blue", "green", "red"]},
    )


@pytest.mark.django_db
def test_an_action_out_of_turn_is_refused_naming_whose_turn_it_is(
    started_game: Game, bob: User
) -> None:
    error = refused(started_game, NotAllowed, user=bob, action=TAKE_THREE)

    assert error.message == "It is not your turn: the game waits for alice."


@pytest.mark.django_db
def test_an_action_by_a_user_without_a_seat_is_refused(started_game: Game, carol: User) -> None:
    error = refused(started_game, NotAllowed, user=carol, action=TAKE_THREE)

    assert "do not have a seat" in error.message


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("take three gems", "JSON object"),
        ([], "JSON object"),
        ({}, "unknown action type"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "take_gems"}, "needs the field"),
        ({"type": "take_gems", "gems": ["white"], "extra": 1}, "unexpected field"),
        ({"type": "take_gems", "gems": ["purple", "blue", "red"]}, ""),
        ({"type": "buy_card", "card": "12"}, ""),
        ({"type": "reserve_from_deck", "level": 7}, ""),
        ({"type": "buy_card", "card": 4000}, ""),
    ],
)
@pytest.mark.django_db
def test_malformed_action_json_is_refused_with_a_message(
    started_game: Game, alice: User, action: Any, reason: str
) -> None:
    error = refused(started_game, IllegalMove, user=alice, action=action)

    assert reason.lower() in error.message.lower()


@pytest.mark.django_db
def test_an_action_on_an_unknown_game_is_refused(alice: User) -> None:
    with pytest.raises(GameNotFound, match="There is no game 424242"):
        play.game_take_action(game_id=424242, action=TAKE_THREE, expected_version=1, user=alice)

    assert not GameEvent.objects.exists()


@pytest.mark.django_db
def test_an_action_on_a_waiting_game_is_refused(alice: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice
    )

    error = refused(game, InvalidRequest, user=alice, action=TAKE_THREE)

    assert error.message == "The game is not in progress."


@pytest.mark.django_db
def test_an_action_on_a_finished_game_is_refused(started_game: Game, alice: User) -> None:
    play.game_resign(game_id=started_game.pk, user=alice)

    refused(started_game, InvalidRequest, user=alice, action=TAKE_THREE)


@pytest.mark.django_db
def test_an_action_on_an_aborted_game_is_refused(
    started_game: Game, alice: User, staff: User
) -> None:
    lobby.game_abort(game_id=started_game.pk, by_user=staff)

    refused(started_game, InvalidRequest, user=alice, action=TAKE_THREE)


@pytest.mark.django_db
def test_an_action_needs_exactly_one_of_a_user_or_as_bot(started_game: Game, alice: User) -> None:
    before = footprint(started_game)
    for request in ({}, {"user": alice, "as_bot": True}):
        with pytest.raises(ValueError, match="exactly one"):
            play.game_take_action(
                game_id=started_game.pk,
                action=TAKE_THREE,
                expected_version=started_game.version,
                **request,
            )
    assert footprint(started_game) == before


# Expected versions ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_stale_expected_version_is_refused_with_the_current_version(
    started_game: Game, alice: User, bob: User
) -> None:
    stale = started_game.version
    act(started_game, TAKE_THREE)
    current = reload(started_game).version

    error = refused(
        started_game, StaleVersion, user=bob, action=TAKE_OTHER_THREE, expected_version=stale
    )

    assert isinstance(error, StaleVersion)
    assert error.current_version == current == stale + 1
    assert error.details == {"current_version": current}
    assert error.code == "stale_version"
    assert str(current) in error.message


@pytest.mark.django_db
def test_an_expected_version_from_the_future_is_refused_as_stale(
    started_game: Game, alice: User
) -> None:
    error = refused(
        started_game,
        StaleVersion,
        user=alice,
        action=TAKE_THREE,
        expected_version=started_game.version + 5,
    )

    assert isinstance(error, StaleVersion)
    assert error.current_version == started_game.version


# Idempotency keys ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_same_key_and_body_return_the_first_result_and_append_nothing(
    started_game: Game, alice: User
) -> None:
    request = {
        "game_id": started_game.pk,
        "action": TAKE_THREE,
        "expected_version": started_game.version,
        "user": alice,
    }
    first = play.game_take_action(**request, idempotency_key="k-1")
    after_first = footprint(started_game)

    again = play.game_take_action(**request, idempotency_key="k-1")
    and_again = play.game_take_action(**request, idempotency_key="k-1")

    assert again == first == and_again
    assert footprint(started_game) == after_first
    assert IdempotencyRecord.objects.filter(game=started_game).count() == 1
    stored = IdempotencyRecord.objects.get(game=started_game)
    assert stored.result == first.to_json()
    assert_consistent(started_game)


@pytest.mark.django_db
def test_a_retry_with_the_same_key_gets_the_first_result_even_after_the_game_moved_on(
    started_game: Game, alice: User, bob: User
) -> None:
    request = {
        "game_id": started_game.pk,
        "action": TAKE_THREE,
        "expected_version": started_game.version,
        "user": alice,
    }
    first = play.game_take_action(**request, idempotency_key="k-1")
    act(started_game, TAKE_OTHER_THREE)  # bob plays
    before = footprint(started_game)

    assert play.game_take_action(**request, idempotency_key="k-1") == first
    assert footprint(started_game) == before


@pytest.mark.parametrize(
    "change",
    [
        {"action": TAKE_OTHER_THREE},
        {"expected_version": 1},
    ],
    ids=["another action", "another expected version"],
)
@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused(
    started_game: Game, alice: User, change: dict[str, Any]
) -> None:
    request = {
        "game_id": started_game.pk,
        "action": TAKE_THREE,
        "expected_version": started_game.version,
        "user": alice,
    }
    play.game_take_action(**request, idempotency_key="k-1")
    before = footprint(started_game)

    with pytest.raises(IdempotencyKeyReused) as caught:
        play.game_take_action(**(request | change), idempotency_key="k-1")

    assert caught.value.code == "idempotency_key_reused"
    assert footprint(started_game) == before
    assert IdempotencyRecord.objects.filter(game=started_game).count() == 1


@pytest.mark.django_db
def test_idempotency_keys_are_scoped_to_the_user_who_sent_them(
    started_game: Game, alice: User, bob: User
) -> None:
    play.game_take_action(
        game_id=started_game.pk,
        action=TAKE_THREE,
        expected_version=started_game.version,
        user=alice,
        idempotency_key="same",
    )

    result = play.game_take_action(
        game_id=started_game.pk,
        action=TAKE_OTHER_THREE,
        expected_version=reload(started_game).version,
        user=bob,
        idempotency_key="same",
    )

    assert result.version == reload(started_game).version
    assert kinds(started_game)[-2:] == ["ActionTaken", "ActionTaken"]


@pytest.mark.django_db
def test_a_refused_request_does_not_use_up_its_idempotency_key(
    started_game: Game, alice: User
) -> None:
    with pytest.raises(StaleVersion):
        play.game_take_action(
            game_id=started_game.pk,
            action=TAKE_THREE,
            expected_version=1,
            user=alice,
            idempotency_key="k-1",
        )
    assert not IdempotencyRecord.objects.exists()

    result = play.game_take_action(
        game_id=started_game.pk,
        action=TAKE_THREE,
        expected_version=started_game.version,
        user=alice,
        idempotency_key="k-1",
    )

    assert result.version == started_game.version + 1


# After-commit hooks --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_after_commit_hooks_run_once_after_the_commit_with_the_new_version(
    started_game: Game, alice: User, after_commit_hooks: list[Any]
) -> None:
    calls: list[tuple[int, int, bool, int]] = []

    def hook(committed: after_commit.Committed) -> None:
        # Runs outside any transaction, and the events it is told about are committed.
        calls.append(
            (
                committed.game_id,
                committed.version,
                connection.in_atomic_block,
                GameEvent.objects.filter(game_id=committed.game_id).count(),
            )
        )

    after_commit.register_after_commit(hook)
    after_commit.register_after_commit(hook)  # registering twice keeps one

    with transaction.atomic():
        result = play.game_take_action(
            game_id=started_game.pk,
            action=TAKE_THREE,
            expected_version=started_game.version,
            user=alice,
        )
        assert calls == [], "a hook ran before the commit"

    assert calls == [(started_game.pk, result.version, False, result.version)]


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_hook_runs_only_when_the_commit_leaves_the_game_waiting_for_a_bot(
    alice: User, after_commit_hooks: list[Any]
) -> None:
    everything: list[int] = []
    bot_turns: list[tuple[int, int, bool]] = []
    after_commit.register_after_commit(lambda committed: everything.append(committed.version))
    after_commit.register_after_commit(
        lambda committed: bot_turns.append(
            (committed.game_id, committed.version, committed.has_a_player)
        ),
        when=after_commit.bot_moves_next,
    )
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), BotSeat("greedy")],
                             created_by=alice, seed=9)  # fmt: skip
    assert bot_turns == [], "alice moves first"

    with CaptureQueriesContext(connection) as queries:
        result = play.game_take_action(
            game_id=game.pk, action=TAKE_THREE, expected_version=game.version, user=alice
        )

    assert everything == [game.version, result.version]
    assert bot_turns == [(game.pk, result.version, True)]  # alice waits for the bot
    # Told by the writer: nothing after the commit asks the database who moves next.
    assert queries.captured_queries[-1]["sql"] == "COMMIT"


@pytest.mark.django_db(transaction=True)
def test_a_hook_with_a_condition_runs_only_after_commits_whose_game_passes_it(
    alice: User, bob: User, after_commit_hooks: list[Any]
) -> None:
    for_bob: list[int] = []
    after_commit.register_after_commit(
        lambda committed: for_bob.append(committed.version),
        when=lambda record: record.acting_seat == 1,
    )
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=9)  # fmt: skip
    assert for_bob == [], "alice moves first"

    with CaptureQueriesContext(connection) as queries:
        result = play.game_take_action(
            game_id=game.pk, action=TAKE_THREE, expected_version=game.version, user=alice
        )

    assert for_bob == [result.version]
    # The writer answered the condition: no query after the commit.
    assert queries.captured_queries[-1]["sql"] == "COMMIT"


@pytest.mark.django_db(transaction=True)
def test_the_writers_conditions_say_who_the_game_waits_for_and_whether_it_is_over(
    alice: User, bob: User, after_commit_hooks: list[Any]
) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=9)  # fmt: skip
    record = records.record_from_rows(game)
    assert after_commit.waits_for_a_person(record)
    assert not after_commit.waits_for_a_seat_handed_to_the_bot(record)
    assert not after_commit.is_finished(record)

    handed = projection.evolve(
        record, Event(record.version + 1, "SeatHandedToBot", {"seat": 0}, 0, None)
    )
    assert after_commit.waits_for_a_seat_handed_to_the_bot(handed)
    assert not after_commit.waits_for_a_person(handed)

    play.game_resign(game_id=game.pk, user=alice)
    assert after_commit.is_finished(records.record_from_rows(reload(game)))


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_hook_is_told_when_no_player_sits_at_the_table(
    alice: User, after_commit_hooks: list[Any]
) -> None:
    bot_turns: list[tuple[int, bool]] = []
    after_commit.register_after_commit(
        lambda committed: bot_turns.append((committed.version, committed.has_a_player)),
        when=after_commit.bot_moves_next,
    )

    game = lobby.game_create(variant="splendor", seats=[BotSeat("random"), BotSeat("random")],
                             created_by=alice, seed=9)  # fmt: skip

    assert bot_turns == [(game.version, False)]


@pytest.mark.django_db(transaction=True)
def test_after_commit_hooks_run_for_lobby_events_too(
    alice: User, bob: User, after_commit_hooks: list[Any]
) -> None:
    calls: list[tuple[int, int]] = []
    after_commit.register_after_commit(
        lambda committed: calls.append((committed.game_id, committed.version))
    )

    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice
    )
    lobby.game_take_seat(game_id=game.pk, user=bob)

    assert calls == [(game.pk, 2), (game.pk, 4)]


@pytest.mark.django_db(transaction=True)
def test_after_commit_hooks_do_not_run_when_a_request_is_refused(
    started_game: Game, alice: User, bob: User, after_commit_hooks: list[Any]
) -> None:
    calls: list[tuple[int, int]] = []
    after_commit.register_after_commit(
        lambda committed: calls.append((committed.game_id, committed.version))
    )

    with pytest.raises(StaleVersion):
        play.game_take_action(
            game_id=started_game.pk, action=TAKE_THREE, expected_version=1, user=alice
        )
    with pytest.raises(NotAllowed):
        play.game_take_action(
            game_id=started_game.pk,
            action=TAKE_THREE,
            expected_version=started_game.version,
            user=bob,
        )
    with pytest.raises(IllegalMove):
        play.game_take_action(
            game_id=started_game.pk,
            action={"type": "fly"},
            expected_version=started_game.version,
            user=alice,
        )
    with pytest.raises(InvalidRequest):
        lobby.game_leave_seat(game_id=started_game.pk, user=alice)

    assert calls == []


@pytest.mark.django_db(transaction=True)
def test_after_commit_hooks_do_not_run_when_a_replayed_idempotent_request_appends_nothing(
    started_game: Game, alice: User, after_commit_hooks: list[Any]
) -> None:
    calls: list[tuple[int, int]] = []
    after_commit.register_after_commit(
        lambda committed: calls.append((committed.game_id, committed.version))
    )
    request = {
        "game_id": started_game.pk,
        "action": TAKE_THREE,
        "expected_version": started_game.version,
        "user": alice,
        "idempotency_key": "k",
    }

    play.game_take_action(**request)
    play.game_take_action(**request)

    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_after_commit_hooks_do_not_run_when_the_surrounding_transaction_rolls_back(
    started_game: Game, alice: User, after_commit_hooks: list[Any]
) -> None:
    calls: list[tuple[int, int]] = []
    after_commit.register_after_commit(
        lambda committed: calls.append((committed.game_id, committed.version))
    )
    before = footprint(started_game)

    class Abandon(Exception):
        pass

    def act_then_give_up() -> None:
        with transaction.atomic():
            play.game_take_action(
                game_id=started_game.pk,
                action=TAKE_THREE,
                expected_version=started_game.version,
                user=alice,
            )
            raise Abandon

    with pytest.raises(Abandon):
        act_then_give_up()

    assert calls == []
    assert footprint(started_game) == before
