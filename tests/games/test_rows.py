"""The writer's SQL reads and writes mean what the ORM's would (``games.store.rows``)."""

from __future__ import annotations

from django.db.models import Model

from games.models import Game, GameEvent
from games.reads import loading
from games.store import rows


def field_values(instance: Model) -> dict[str, object]:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}  # fmt: skip


def test_a_game_read_in_sql_equals_the_orms(started_game: Game) -> None:
    read = loading.game_get(started_game.pk)

    assert field_values(read) == field_values(Game.objects.get(pk=started_game.pk))
    assert isinstance(read.snapshot, dict)
    assert not read._state.adding


def test_an_update_writes_the_fields_and_stamps_updated_at(started_game: Game) -> None:
    game = loading.game_get(started_game.pk)
    before = game.updated_at
    game.result = {"note": ["x"]}
    game.acting_seat = None

    assert rows.update(game, ("result", "acting_seat", "updated_at")) == 1

    stored = Game.objects.get(pk=game.pk)
    assert (stored.result, stored.acting_seat) == ({"note": ["x"]}, None)
    assert stored.updated_at == game.updated_at > before


def test_an_insert_stores_every_field(started_game: Game) -> None:
    event = GameEvent(game=started_game, seq=started_game.version + 1, kind="GameAborted",
                      payload={"reason": "ß"}, seat=1)  # fmt: skip

    rows.insert(event)

    stored = GameEvent.objects.get(game=started_game, seq=event.seq)
    assert {**field_values(stored), "id": None} == field_values(event)
