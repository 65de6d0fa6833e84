"""The entry points of a rebuild's pool processes (``analytics.folding``).

A spawned process imports this module before Django is set up, so it imports no model at the
top: ``start`` sets Django up, on the database the rebuild reads (a test's own, say), and only
then does ``facts_of_games`` reach the models.
"""

from __future__ import annotations

import os
from typing import Any


def start(database: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "splendor_site.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = database


def facts_of_games(game_ids: tuple[int, ...]) -> list[Any]:
    from analytics.folding import events_of_games, facts_in

    return list(facts_in(events_of_games(game_ids)))
