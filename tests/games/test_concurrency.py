"""Fifty clients sending the same turn at once, on a real PostgreSQL: the row lock, the expected
version and the idempotency keys let exactly one through, and the log stays gap-free."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from games.commands import lobby, play
from games.commands.writer import GameWriter
from games.errors import GameError, StaleVersion
from games.models import Game, GameEvent, IdempotencyRecord
from games.vocabulary import EventKind, Status
from tests import races
from tests.games.helpers import assert_consistent, reload, seqs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 50
TAKE_THREE = {"type": "take_gems", "gems": ["white", "blue", "green"]}


def all_at_once(request: Callable[[int], Any], clients: int = CLIENTS) -> list[Any]:
    return races.all_at_once(request, clients)


def successes(outcomes: list[Any]) -> list[play.ActionResult]:
    return [outcome for outcome in outcomes if isinstance(outcome, play.ActionResult)]


def assert_only_conflicts(outcomes: list[Any], version: int) -> list[StaleVersion]:
    failures = [outcome for outcome in outcomes if not isinstance(outcome, play.ActionResult)]
    unexpected = [failure for failure in failures if not isinstance(failure, StaleVersion)]
    assert not unexpected, f"unexpected outcomes: {unexpected[:3]!r}"
    for failure in failures:
        assert failure.current_version == version
    return failures


def test_fifty_clients_sending_the_same_turn_append_exactly_one_event(
    started_game: Game, alice: User
) -> None:
    version = started_game.version

    outcomes = all_at_once(
        lambda _: play.game_take_action(
            game_id=started_game.pk, action=TAKE_THREE, expected_version=version, user=alice
        )
    )

    (success,) = successes(outcomes)
    assert success.version == version + 1
    assert len(assert_only_conflicts(outcomes, version + 1)) == CLIENTS - 1
    game = reload(started_game)
    assert game.version == version + 1
    assert seqs(game) == list(range(1, version + 2))
    assert GameEvent.objects.filter(game=game, kind="ActionTaken").count() == 1
    assert_consistent(game)


def test_fifty_clients_with_different_idempotency_keys_get_one_success_and_49_conflicts(
    started_game: Game, alice: User
) -> None:
    version = started_game.version

    outcomes = all_at_once(
        lambda index: play.game_take_action(
            game_id=started_game.pk,
            action=TAKE_THREE,
            expected_version=version,
            user=alice,
            idempotency_key=f"client-{index}",
        )
    )

    (success,) = successes(outcomes)
    assert len(assert_only_conflicts(outcomes, version + 1)) == CLIENTS - 1
    winner = outcomes.index(success)
    record = IdempotencyRecord.objects.get(game=started_game)
    assert record.key == f"client-{winner}"
    assert record.result == success.to_json()
    assert seqs(started_game) == list(range(1, version + 2))
    assert_consistent(started_game)


def test_fifty_retries_with_the_same_key_and_body_append_one_event_and_agree(
    started_game: Game, alice: User
) -> None:
    version = started_game.version

    outcomes = all_at_once(
        lambda _: play.game_take_action(
            game_id=started_game.pk,
            action=TAKE_THREE,
            expected_version=version,
            user=alice,
            idempotency_key="one-key",
        )
    )

    errors = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    assert not errors, f"retries failed: {errors[:3]!r}"
    assert len(successes(outcomes)) == CLIENTS
    assert len(set(outcomes)) == 1
    assert outcomes[0] == play.ActionResult(started_game.pk, version + 1, (version + 1,), 1)
    assert IdempotencyRecord.objects.filter(game=started_game).count() == 1
    assert seqs(started_game) == list(range(1, version + 2))
    assert_consistent(started_game)


def test_clients_racing_through_a_game_keep_the_log_gap_free(
    started_game: Game, alice: User, bob: User
) -> None:
    """Ten clients each play whatever is legal at the version they last saw, retrying on
    conflict: versions advance one at a time and every accepted seq is reported once."""
    import random

    from games import engine
    from games.reads import loading

    users = {0: alice, 1: bob}
    moves_per_client = 2

    def client(index: int) -> list[int]:
        rng = random.Random(index)
        accepted: list[int] = []
        attempts = 0
        while len(accepted) < moves_per_client and attempts < 200:
            attempts += 1
            game = Game.objects.get(pk=started_game.pk)
            if game.status != Status.ACTIVE:
                break
            state = loading.game_state(game)
            action = engine.action_to_json(rng.choice(engine.legal_actions(state)))
            try:
                result = play.game_take_action(
                    game_id=game.pk,
                    action=action,
                    expected_version=game.version,
                    user=users[game.acting_seat],
                )
            except (StaleVersion, GameError):
                continue
            accepted.extend(result.events)
        return accepted

    outcomes = all_at_once(client, clients=10)

    errors = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    assert not errors, errors[:3]
    appended = sorted(seq for outcome in outcomes for seq in outcome)
    game = reload(started_game)
    first_action = 4  # GameCreated, SeatTaken, SeatTaken, GameStarted
    assert appended == list(range(first_action + 1, game.version + 1))
    assert seqs(game) == list(range(1, game.version + 1))
    assert_consistent(game)


def test_a_writer_that_waited_for_the_lock_reads_the_seats_as_committed_before_it(
    make_user: Callable[..., User],
) -> None:
    """The locked read of a command that waited for another sees that command's seats and the
    new player's address, not the seats as they were when it began to wait."""
    dora = make_user("dora", email="dora@example.com")
    game = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 3, created_by=None)
    read: dict[str, Any] = {}
    waiting = threading.Event()

    def second_writer() -> None:
        try:
            with transaction.atomic():
                waiting.set()
                writer = GameWriter.locked(game.pk)
                read["seats"], read["has_email"] = writer.record.seats, dict(writer._has_email)
        finally:
            connection.close()

    with transaction.atomic():
        first = GameWriter.locked(game.pk)
        first.append(EventKind.SEAT_TAKEN, {"seat": 0, "user": dora.pk, "display_name": "dora"},
                     seat=0, actor=dora)  # fmt: skip
        first.save()
        thread = threading.Thread(target=second_writer)
        thread.start()
        waiting.wait(timeout=10)
        time.sleep(0.3)  # the second writer's read is waiting for the lock by now
    thread.join(timeout=30)

    assert [seat.user_id for seat in read["seats"]] == [dora.pk, None, None]
    assert read["has_email"] == {dora.pk: True}
