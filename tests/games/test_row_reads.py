"""The replay's and snapshot load's own reads (``games.store.row_reads``) give exactly what the ORM
gives, and the fast fold of a replay gives exactly what folding every event with ``evolve`` does."""

from __future__ import annotations

import dataclasses
import functools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games import engine
from games.commands import lobby, play
from games.models import Game, GameEvent
from games.records import projection
from games.records.record import GameRecord
from games.store import row_reads
from games.vocabulary import EventKind, Status
from tests.games.helpers import play_random, reload

pytestmark = pytest.mark.django_db


def orm_events(game: Game) -> list[tuple[Any, ...]]:
    return list(
        GameEvent.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "kind", "payload", "seat", "created_at", "schema_version")
    )


def assert_same_row(read: Game, expected: Game) -> None:
    for field in Game._meta.concrete_fields:
        value, wanted = getattr(read, field.attname), getattr(expected, field.attname)
        assert (field.name, value) == (field.name, wanted)
        assert type(value) is type(wanted), field.name
        if isinstance(wanted, datetime):
            assert value.tzinfo is wanted.tzinfo, field.name


def test_a_finished_games_row_reads_as_the_orm_reads_it(started_game: Game) -> None:
    game = play_random(started_game, 1000, seed=3)
    assert game.status == Status.FINISHED

    read = row_reads.game_row(game.pk)

    assert read is not None
    assert_same_row(read, reload(game))


def test_a_row_with_a_move_clock_and_times_on_the_whole_second_reads_as_the_orm_reads_it(
    alice: User, bob: User
) -> None:
    game = lobby.game_create(
        variant="splendor",
        seats=[lobby.UserSeat(alice), lobby.UserSeat(bob)],
        created_by=alice,
        move_seconds=3600,
    )
    on_the_second = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(
        started_at=on_the_second, turn_started_at=on_the_second + timedelta(microseconds=1)
    )
    expected = reload(game)
    assert expected.turn_deadline is not None
    assert expected.finished_at is None

    read = row_reads.game_row(game.pk)

    assert read is not None
    assert_same_row(read, expected)
    assert read.started_at == on_the_second


def test_a_waiting_games_row_reads_as_the_orm_reads_it(alice: User) -> None:
    game = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 3, created_by=alice)

    read = row_reads.game_row(game.pk)

    assert read is not None
    assert_same_row(read, reload(game))


def test_no_row_for_a_game_that_does_not_exist() -> None:
    assert row_reads.game_row(2**62) is None


def test_a_games_events_read_as_the_orm_reads_them_with_each_action_parsed(
    started_game: Game,
) -> None:
    game = play_random(started_game, 1000, seed=5)

    events = list(row_reads.game_events(game.pk, game.variant))

    assert [tuple(event[:6]) for event in events] == orm_events(game)
    actions = [event for event in events if event.kind == EventKind.ACTION_TAKEN]
    assert len(actions) > 40
    for event in actions:
        assert event.action == engine.action_from_json(event.payload["action"], "splendor")
    assert all(event.action is None for event in events if event not in actions)


def test_the_parsed_actions_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_reads, "_ACTIONS_KEPT", 3)
    monkeypatch.setattr(row_reads, "_actions_taken", {})
    texts = [f'{{"action": {{"type": "reserve_card", "card": {card}}}}}' for card in range(5)]

    parsed = [row_reads.action_taken_from_text("splendor", text) for text in texts]

    assert len(row_reads._actions_taken) <= 3
    assert [action for _payload, action in parsed] == [
        engine.action_from_json({"type": "reserve_card", "card": card}, "splendor")
        for card in range(5)
    ]


def test_a_malformed_action_payload_is_refused_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_reads, "_actions_taken", {})

    with pytest.raises(engine.MalformedJSON):
        row_reads.action_taken_from_text("splendor", '{"action": {"type": "steal"}}')

    assert row_reads._actions_taken == {}


@pytest.mark.parametrize("resign_after", [None, 31])
def test_the_fast_fold_equals_evolve_over_every_event_at_every_step(
    started_game: Game, alice: User, resign_after: int | None
) -> None:
    game = play_random(started_game, 1000 if resign_after is None else resign_after, seed=7)
    if resign_after is not None:
        play.game_resign(game_id=game.pk, user=alice)
    events = list(row_reads.game_events(game.pk, game.variant))
    assert reload(game).status == Status.FINISHED

    for end in range(1, len(events) + 1):
        step_by_step = functools.reduce(projection.evolve, events[:end], None)
        assert projection.replay(events[:end]) == step_by_step
        assert projection.replay(events[:end], checked=True) == step_by_step


def test_the_reads_give_the_same_through_djangos_cursor_while_queries_are_counted(
    started_game: Game, django_assert_num_queries: Any
) -> None:
    game = play_random(started_game, 1000, seed=11)
    row, events = row_reads.game_row(game.pk), list(row_reads.game_events(game.pk, game.variant))

    with django_assert_num_queries(2):
        counted_row = row_reads.game_row(game.pk)
        counted_events = list(row_reads.game_events(game.pk, game.variant))

    assert row is not None
    assert counted_row is not None
    assert_same_row(counted_row, row)
    assert counted_events == events


def test_a_records_copy_with_changes_is_what_dataclasses_replace_makes(started_game: Game) -> None:
    game = play_random(started_game, 20, seed=13)
    record = projection.replay(row_reads.game_events(game.pk, game.variant))
    changes = {"version": record.version + 1, "status": Status.FINISHED, "resigned": (1,)}

    copy = projection._updated(record, changes)

    assert copy == dataclasses.replace(record, **changes)
    assert type(copy) is GameRecord
    assert record.version == copy.version - 1  # the original is left as it was
    with pytest.raises(TypeError, match="no field"):
        projection._updated(record, {"verison": 1})


@pytest.mark.django_db(transaction=True)
def test_a_read_after_the_connection_closed_runs_on_the_new_connection(alice: User) -> None:
    game = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 2, created_by=alice)
    assert row_reads.game_row(game.pk) is not None

    connection.close()  # as at the end of a request, or after a failure
    read = row_reads.game_row(game.pk)
    events = list(row_reads.game_events(game.pk, game.variant))

    assert read is not None
    assert_same_row(read, reload(game))
    assert [event.kind for event in events] == [EventKind.GAME_CREATED]


@pytest.mark.postgres
def test_the_reads_run_as_prepared_statements_once_repeated(started_game: Game) -> None:
    if connection.settings_dict["OPTIONS"].get("prepare_threshold") is None:
        pytest.skip("prepared reads are off (DATABASE_PREPARED_READS=false)")
    for _ in range(6):  # psycopg prepares a statement on its sixth run on a connection
        assert row_reads.game_row(started_game.pk) is not None
        assert list(row_reads.game_events(started_game.pk, started_game.variant))

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]

    assert [statement for statement in prepared if "FROM games_game " in statement]
    assert [statement for statement in prepared if "FROM games_gameevent " in statement]
