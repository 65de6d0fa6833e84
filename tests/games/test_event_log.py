"""Events are immutable (model, queryset and, on PostgreSQL, a trigger), and the read models are
a cache of the log: the snapshot is used only when current, the check finds any drift and the
rebuild repairs it."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F, ProtectedError

from games import engine
from games.commands.integrity import read_model_differences, rebuild_read_models
from games.models import EventsAreImmutable, Game, GameEvent, Seat
from games.reads import loading
from games.records import projection
from games.records.record import Event
from games.store import records
from games.vocabulary import Status
from splendor_site import database_roles
from tests.games.helpers import assert_consistent, play_random, reload, seqs

pytestmark = pytest.mark.django_db


def verify(*game_ids: int) -> str:
    out = StringIO()
    call_command("verify_games", *map(str, game_ids), stdout=out)
    return out.getvalue()


def rebuild(*game_ids: int) -> str:
    out = StringIO()
    call_command("rebuild_read_models", *map(str, game_ids), stdout=out)
    return out.getvalue()


def event_row(event: GameEvent) -> tuple[Any, ...]:
    return tuple(
        GameEvent.objects.filter(pk=event.pk)
        .values_list("game_id", "seq", "kind", "payload", "seat")
        .get()
    )


# Immutability --------------------------------------------------------------------------------


def test_saving_a_recorded_event_again_is_refused(started_game: Game) -> None:
    event = GameEvent.objects.get(game=started_game, seq=2)
    original = event_row(event)
    event.kind = "GameAborted"
    event.payload = {"forged": True}

    with pytest.raises(EventsAreImmutable):
        event.save()
    with pytest.raises(EventsAreImmutable):
        event.save(update_fields=["payload"])

    assert event_row(event) == original


def test_deleting_a_recorded_event_is_refused(started_game: Game) -> None:
    event = GameEvent.objects.get(game=started_game, seq=1)

    with pytest.raises(EventsAreImmutable):
        event.delete()

    assert GameEvent.objects.filter(pk=event.pk).exists()


@pytest.mark.parametrize(
    "write",
    [
        lambda game: GameEvent.objects.filter(game=game).update(kind="GameAborted"),
        lambda game: GameEvent.objects.all().update(payload={}),
        lambda game: game.events.update(seat=3),
        lambda game: game.events.all().update(seq=F("seq") + 1),
        lambda game: GameEvent.objects.filter(game=game).delete(),
        lambda game: GameEvent.objects.all().delete(),
        lambda game: game.events.all().delete(),
        lambda game: GameEvent.objects.bulk_update(
            [GameEvent(pk=event.pk, kind="GameAborted") for event in game.events.all()],
            ["kind"],
        ),
    ],
    ids=[
        "filter-update",
        "all-update",
        "related-update",
        "related-all-update",
        "filter-delete",
        "all-delete",
        "related-delete",
        "bulk-update",
    ],
)
def test_bulk_updates_and_deletes_of_events_are_refused(
    started_game: Game, write: Callable[[Game], object]
) -> None:
    before = list(GameEvent.objects.filter(game=started_game).values_list())

    with pytest.raises(EventsAreImmutable), transaction.atomic():
        write(started_game)

    assert list(GameEvent.objects.filter(game=started_game).values_list()) == before


def test_an_event_saved_under_the_id_of_a_recorded_one_does_not_overwrite_it(
    started_game: Game,
) -> None:
    recorded = GameEvent.objects.get(game=started_game, seq=2)
    original = event_row(recorded)
    forged = GameEvent(
        pk=recorded.pk,
        game=started_game,
        seq=recorded.seq,
        kind="GameAborted",
        payload={"forged": True},
        created_at=recorded.created_at,
    )

    with pytest.raises((EventsAreImmutable, IntegrityError, DatabaseError)), transaction.atomic():
        forged.save()

    assert event_row(recorded) == original


def test_a_second_event_with_the_same_seq_is_refused_by_the_unique_constraint(
    started_game: Game,
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEvent.objects.create(game=started_game, seq=1, kind="GameAborted", payload={})

    assert seqs(started_game) == list(range(1, started_game.version + 1))


def test_a_game_with_events_cannot_be_deleted(started_game: Game) -> None:
    with pytest.raises(ProtectedError):
        reload(started_game).delete()
    with pytest.raises(ProtectedError):
        Game.objects.filter(pk=started_game.pk).delete()

    assert GameEvent.objects.filter(game=started_game).count() == started_game.version


@pytest.mark.postgres
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_gameevent SET kind = 'GameAborted' WHERE game_id = %s",
        "UPDATE games_gameevent SET payload = '{}'::jsonb WHERE game_id = %s AND seq = 1",
        "DELETE FROM games_gameevent WHERE game_id = %s",
        "DELETE FROM games_gameevent WHERE game_id = %s AND seq = 1",
    ],
    ids=["update-all", "update-one", "delete-all", "delete-one"],
)
def test_the_postgresql_trigger_refuses_raw_sql_updates_and_deletes_of_events(
    started_game: Game, sql: str
) -> None:
    before = list(GameEvent.objects.filter(game=started_game).values_list())

    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [started_game.pk])

    assert list(GameEvent.objects.filter(game=started_game).values_list()) == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "sql",
    [
        "TRUNCATE games_gameevent",
        "TRUNCATE TABLE ONLY games_gameevent RESTART IDENTITY",
        "TRUNCATE games_game CASCADE",
        # Every table that refers to games_game, else PostgreSQL refuses for that reason first.
        "TRUNCATE games_seat, games_gameevent, games_idempotencyrecord, games_game, "
        "notifications_mailrecord, notifications_gamepresence",
    ],
    ids=["events", "events-only-restart", "games-cascade", "several-tables"],
)
def test_the_postgresql_trigger_refuses_truncate_of_events_even_for_the_owner(
    started_game: Game, sql: str
) -> None:
    """As the tables' owner (a superuser where no separate owner is configured), who has the
    privilege to TRUNCATE: the statement-level trigger is what refuses."""
    before = list(GameEvent.objects.filter(game=started_game).values_list())

    with (
        database_roles.as_owner(connection),
        pytest.raises(DatabaseError, match="append-only: TRUNCATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql)

    assert list(GameEvent.objects.filter(game=started_game).values_list()) == before
    assert Game.objects.filter(pk=started_game.pk).exists()


@pytest.mark.postgres
def test_the_postgresql_trigger_still_lets_events_be_inserted(started_game: Game) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'games_gameevent'::regclass "
            "AND NOT tgisinternal"
        )
        assert sorted(cursor.fetchall()) == [
            ("games_gameevent_append_only",),
            ("games_gameevent_no_truncate",),
        ]

    play_random(started_game, 3)

    assert_consistent(started_game)


# Snapshot and replay -------------------------------------------------------------------------


def test_game_state_uses_the_snapshot_when_it_is_current(
    started_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play_random(started_game, 12)
    replayed = records.record_from_log(game).state
    monkeypatch.setattr(records, "record_from_log", _must_not_replay)

    state = loading.game_state(game)

    assert state == replayed
    assert engine.state_to_json(state) == game.snapshot


def test_game_state_replays_the_log_when_the_snapshot_is_stale(
    started_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play_random(started_game, 12)
    current = records.record_from_log(game).state
    # An old snapshot left behind: content from the start of the game, version behind.
    start = engine.initial_state(records.record_from_log(game).setup)
    Game.objects.filter(pk=game.pk).update(
        snapshot=engine.state_to_json(start), snapshot_version=F("snapshot_version") - 1
    )
    game = reload(game)
    replays: list[int] = []
    real_replay = records.record_from_log
    monkeypatch.setattr(
        records, "record_from_log", lambda g: replays.append(g.pk) or real_replay(g)
    )

    state = loading.game_state(game)

    assert replays == [game.pk]
    assert state == current != start


def test_game_state_of_a_game_that_has_not_started_is_none(alice: Any) -> None:
    from games.commands import lobby

    game = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 2, created_by=alice)

    assert loading.game_state(game) is None


def test_replay_of_a_finished_game_gives_its_final_state_and_result(started_game: Game) -> None:
    game = play_random(started_game, 1000, seed=3)
    assert game.status == Status.FINISHED

    record = records.record_from_log(game)

    assert record.status == "finished"
    assert record.version == game.version
    assert record.result == game.result
    assert engine.state_to_json(record.state) == game.snapshot
    assert engine.outcome(record.state) is not None
    assert_consistent(game)


def _must_not_replay(game: Game) -> Any:
    raise AssertionError("game_state replayed although the snapshot was current")


# verify_games and rebuild_read_models --------------------------------------------------------


def _other_state_json(game: Game) -> dict[str, Any]:
    """A valid state that is not the game's: the state before its last action."""
    events = [
        Event(row.seq, row.kind, row.payload, row.seat, row.created_at)
        for row in GameEvent.objects.filter(game=game).order_by("seq")
    ]
    record = projection.replay(events[:-1])
    assert record.state is not None
    return engine.state_to_json(record.state)


CORRUPTIONS: dict[str, Callable[[Game], None]] = {
    "status": lambda g: Game.objects.filter(pk=g.pk).update(status=Status.FINISHED),
    "version": lambda g: Game.objects.filter(pk=g.pk).update(version=F("version") + 1),
    "acting_seat": lambda g: Game.objects.filter(pk=g.pk).update(acting_seat=1 - g.acting_seat),
    "commitment": lambda g: Game.objects.filter(pk=g.pk).update(commitment="0" * 64),
    "result": lambda g: Game.objects.filter(pk=g.pk).update(result={"winners": [0]}),
    "stale snapshot": lambda g: Game.objects.filter(pk=g.pk).update(
        snapshot_version=F("snapshot_version") - 1
    ),
    "wrong snapshot": lambda g: Game.objects.filter(pk=g.pk).update(snapshot=_other_state_json(g)),
    "seat": lambda g: Seat.objects.filter(game=g, index=1).update(display_name="mallory"),
    "is_public": lambda g: Game.objects.filter(pk=g.pk).update(is_public=False),
    "options": lambda g: Game.objects.filter(pk=g.pk).update(options={"variant_rule": 1}),
    "created_by": lambda g: Game.objects.filter(pk=g.pk).update(created_by=None),
    "seat_count": lambda g: Game.objects.filter(pk=g.pk).update(seat_count=3),
}


def test_verify_games_is_clean_for_games_played_through_the_services(
    started_game: Game, alice: Any, bob: Any
) -> None:
    from games.commands import lobby

    play_random(started_game, 20)
    lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 3, created_by=bob)

    output = verify()

    assert "2 game(s) replayed, 0 with differences" in output


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_verify_games_reports_a_game_whose_read_models_differ_and_rebuild_fixes_it(
    started_game: Game, alice: Any, corruption: str
) -> None:
    from games.commands import lobby

    game = play_random(started_game, 9)
    healthy = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 2, created_by=alice)
    CORRUPTIONS[corruption](game)

    out = StringIO()
    with pytest.raises(CommandError, match="1 game\\(s\\) differ"):
        call_command("verify_games", stdout=out)
    report = out.getvalue()
    assert f"game {game.pk}:" in report
    assert f"game {healthy.pk}:" not in report
    assert "2 game(s) replayed, 1 with differences" in report
    assert read_model_differences(reload(game))

    rebuilt = rebuild()

    assert f"game {game.pk}: rebuilt" in rebuilt
    assert "2 game(s) checked, 1 rebuilt" in rebuilt
    assert "0 with differences" in verify()
    assert_consistent(game)
    # The repaired game plays on.
    play_random(game, 3, seed=8)
    assert_consistent(game)


def test_verify_games_reports_a_missing_seat_row(started_game: Game) -> None:
    Seat.objects.filter(game=started_game, index=1).delete()

    with pytest.raises(CommandError):
        verify(started_game.pk)

    rebuild(started_game.pk)
    assert Seat.objects.filter(game=started_game).count() == 2
    assert_consistent(started_game)


def test_verify_games_can_check_only_the_games_named(started_game: Game, alice: Any) -> None:
    from games.commands import lobby

    other = lobby.game_create(variant="splendor", seats=[lobby.OpenSeat()] * 2, created_by=alice)
    Game.objects.filter(pk=other.pk).update(status=Status.ACTIVE)

    assert "1 game(s) replayed, 0 with differences" in verify(started_game.pk)
    with pytest.raises(CommandError):
        verify(other.pk)


def test_rebuilding_a_healthy_game_changes_nothing(started_game: Game) -> None:
    game = play_random(started_game, 5)
    row = Game.objects.filter(pk=game.pk).values().get()

    assert rebuild_read_models(game) is False
    assert "0 rebuilt" in rebuild()

    after = Game.objects.filter(pk=game.pk).values().get()
    assert after == row
