"""A crash in the middle of a write cannot leave a wrong game: the event, the snapshot and the
read models are committed together or not at all, whether the writer raises or is killed."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from games import engine
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game, GameEvent, IdempotencyRecord
from games.records import projection
from games.store import rows
from tests.games.helpers import act, assert_consistent, footprint, reload

ROOT = Path(__file__).resolve().parents[2]
TAKE_THREE = {"type": "take_gems", "gems": ["white", "blue", "green"]}


class Crash(Exception):
    """Stands in for anything that can go wrong after the event row is inserted."""


def crash(*args: Any, **kwargs: Any) -> Any:
    raise Crash("the server fell over")


def verify_games_output() -> str:
    out = StringIO()
    call_command("verify_games", stdout=out)  # raises CommandError on any difference
    return out.getvalue()


def crash_on_state_to_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "state_to_json", crash)  # the snapshot, after the insert


def crash_on_game_row_update(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows, "update", crash)  # the game's read model, after the insert


def crash_on_end_of_game_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every action asks whether the game is over right after its event is inserted. (The fold,
    # projection.evolve, runs before the insert: an action it refuses is never written.)
    monkeypatch.setattr(projection, "result_of", crash)


def crash_on_idempotency_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IdempotencyRecord, "save", crash)  # the last write of the transaction


CRASH_POINTS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "snapshot serialisation": crash_on_state_to_json,
    "game row update": crash_on_game_row_update,
    "end-of-game check": crash_on_end_of_game_check,
    "idempotency record": crash_on_idempotency_record,
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("point", list(CRASH_POINTS))
def test_a_crash_after_the_event_insert_appends_nothing_and_leaves_the_game_consistent(
    started_game: Game, alice: User, point: str
) -> None:
    inserted: list[int] = []
    real_insert = rows.insert

    def spy_insert(instance: Any) -> None:
        real_insert(instance)
        if isinstance(instance, GameEvent):
            inserted.append(instance.seq)

    before = footprint(started_game)
    row = Game.objects.filter(pk=started_game.pk).values().get()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rows, "insert", spy_insert)
        CRASH_POINTS[point](patch)
        with pytest.raises(Crash):
            play.game_take_action(
                game_id=started_game.pk,
                action=TAKE_THREE,
                expected_version=started_game.version,
                user=alice,
                idempotency_key="k",
            )

    assert inserted == [started_game.version + 1], "the crash came before the insert"
    assert footprint(started_game) == before
    assert Game.objects.filter(pk=started_game.pk).values().get() == row
    assert not IdempotencyRecord.objects.exists()
    assert "0 with differences" in verify_games_output()
    # Nothing is left locked or half-done: the same request now goes through.
    result = play.game_take_action(
        game_id=started_game.pk,
        action=TAKE_THREE,
        expected_version=started_game.version,
        user=alice,
        idempotency_key="k",
    )
    assert result.version == started_game.version + 1
    assert_consistent(started_game)


@pytest.mark.django_db(transaction=True)
def test_a_crash_while_creating_a_full_game_leaves_no_game_behind(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "state_to_json", crash)

    with pytest.raises(Crash):
        lobby.game_create(
            variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice
        )

    assert not Game.objects.exists()
    assert not GameEvent.objects.exists()


# A real kill -9 in the middle of the transaction, on PostgreSQL ---------------------------------

WRITER = textwrap.dedent(
    """
    import json, sys, time

    import django

    django.setup()

    from django.contrib.auth.models import User
    from django.db import connection

    from games.store import rows
    from games.commands import lobby, play

    game_id, user_id, version = map(int, sys.argv[1:4])
    action = json.loads(sys.argv[4])

    def paused_update(instance, field_names):
        # The event row is inserted; the read model and snapshot are not written yet.
        print("inside", connection.connection.info.backend_pid, flush=True)
        time.sleep(120)

    rows.update = paused_update
    play.game_take_action(
        game_id=game_id, action=action, expected_version=version,
        user=User.objects.get(pk=user_id),
    )
    print("committed", flush=True)
    """
)


def read_line(process: subprocess.Popen[str], timeout: float) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        return ""
    return process.stdout.readline()


def backend(pid: int) -> tuple[str, bool] | None:
    """The server process's state and whether it holds a lock on the events table."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
        if row is None:
            return None
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE pid = %s "
            "AND relation = 'games_gameevent'::regclass AND mode = 'RowExclusiveLock'",
            [pid],
        )
        return row[0], cursor.fetchone()[0] > 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_writer_killed_inside_its_transaction_appends_nothing(
    started_game: Game, alice: User, tmp_path: Path
) -> None:
    db = connection.settings_dict
    login = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    url = f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = os.environ | {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "splendor_site.settings",
        "PYTHONPATH": str(ROOT),
    }
    before = footprint(started_game)
    process = subprocess.Popen(
        [
            sys.executable,
            str(script),
            str(started_game.pk),
            str(alice.pk),
            str(started_game.version),
            json.dumps(TAKE_THREE),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_line(process, timeout=30)
        if not line.startswith("inside"):
            process.kill()
            _, errors = process.communicate(timeout=10)
            pytest.fail(f"the writer did not reach the pause: {line!r}\n{errors}")
        pid = int(line.split()[1])
        # The writer is inside its transaction, with its event inserted but not committed.
        assert backend(pid) == ("idle in transaction", True)
        assert footprint(started_game) == before

        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL

    deadline = time.monotonic() + 10
    while backend(pid) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert backend(pid) is None, "the server still runs the killed writer's session"

    assert footprint(started_game) == before
    assert reload(started_game).snapshot_version == before[0]
    assert "0 with differences" in verify_games_output()
    # The row lock died with the writer: the same turn can be played now.
    result = act(started_game, TAKE_THREE)
    assert result.version == before[0] + 1
    assert "0 with differences" in verify_games_output()
