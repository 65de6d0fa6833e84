"""The data migration from the old ``email_on_turn`` box keeps each player's choice."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from splendor_site import database_roles

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0001_initial")]
AFTER = [("accounts", "0004_remove_profile_email_on_turn")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    """Migrate as the owner role, as ``manage.py migrate`` does (the app role may not ALTER)."""
    with database_roles.as_owner(connection):
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(targets)
    return executor


def test_a_ticked_box_becomes_every_turn_and_an_unticked_one_no_mail() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    User, Profile = old.get_model("auth", "User"), old.get_model("accounts", "Profile")
    wants = User.objects.create(username="wants")
    declined = User.objects.create(username="declined")
    Profile.objects.create(user=wants, email_on_turn=True)
    Profile.objects.create(user=declined, email_on_turn=False)
    try:
        new = migrate(AFTER).loader.project_state(AFTER).apps
        Profile = new.get_model("accounts", "Profile")
        settings = dict(Profile.objects.values_list("user__username", "notify"))
        assert settings == {"wants": "every_turn", "declined": "none"}
        back = migrate(BEFORE).loader.project_state(BEFORE).apps
        Profile = back.get_model("accounts", "Profile")
        boxes = dict(Profile.objects.values_list("user__username", "email_on_turn"))
        assert boxes == {"wants": True, "declined": False}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
