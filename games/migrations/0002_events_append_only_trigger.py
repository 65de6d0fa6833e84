"""On PostgreSQL, refuse UPDATE and DELETE on game events inside the database itself.

The model and its queryset already refuse; this is the backstop for raw SQL and other clients.
TRUNCATE (used only by test flushes) is a table operation and does not fire row triggers.
"""

from __future__ import annotations

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_gameevent_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'game events are append-only: % refused on game %, seq %',
        TG_OP, OLD.game_id, OLD.seq
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_gameevent_append_only
    BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS games_gameevent_append_only ON games_gameevent;
DROP FUNCTION IF EXISTS games_gameevent_refuse_change();
"""


def create_trigger(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
