"""Usernames are unique whatever their case, in the database itself.

The sign-up form already refuses "Alice" when "alice" exists (it compares case-insensitively),
but two sign-ups racing with "Alice" and "alice" could both pass that check; only an index can
decide the race. UPPER() is what Django's ``iexact`` compares on both PostgreSQL and SQLite.
"""

from __future__ import annotations

from django.db import migrations

INDEX = "accounts_username_upper_unique"


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_remove_profile_email_on_turn"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (UPPER(username))",
            reverse_sql=f"DROP INDEX {INDEX}",
        ),
    ]
