"""On PostgreSQL, refuse TRUNCATE of the event log too, whoever asks.

Row triggers (0002) do not fire on TRUNCATE, so until now a superuser's slip, a `manage.py flush`
or a stray `TRUNCATE ... CASCADE` from another table emptied it. A statement-level trigger
refuses it for every role; only the table's owner could switch it off, on purpose (the test
suite does so to empty its own throwaway database between tests).
"""

from __future__ import annotations

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_gameevent_refuse_truncate() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'game events are append-only: TRUNCATE refused'
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_gameevent_no_truncate
    BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_refuse_truncate();
"""

DROP = """
DROP TRIGGER IF EXISTS games_gameevent_no_truncate ON games_gameevent;
DROP FUNCTION IF EXISTS games_gameevent_refuse_truncate();
"""


def create_trigger(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_event_time_and_orderings")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
