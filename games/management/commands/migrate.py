"""``migrate`` as the owner role, then grant the application role what it needs.

Overrides Django's command (an app's command takes precedence over the core one). With
``DATABASE_OWNER_URL`` set, the migrations run connected as that owner, and the role of
``DATABASE_URL`` gets its privileges on every table, new ones included. Without it, this is
Django's ``migrate`` unchanged.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

from splendor_site import database_roles


class Command(DjangoMigrate):
    help = (
        f"{DjangoMigrate.help} With DATABASE_OWNER_URL set, runs as that owner role and grants "
        "the role of DATABASE_URL its privileges afterwards."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        if not database_roles.has_separate_owner(connection):
            super().handle(*args, **options)
            return
        with database_roles.as_owner(connection) as application_role:
            super().handle(*args, **options)
            database_roles.grant_application_privileges(connection, application_role)
            if options["verbosity"] >= 1:
                self.stdout.write(f"Granted role {application_role} its privileges.")
