"""The entry points of a rebuild's pool processes (``analytics.folding``).

A spawned process imports this module before Django is set up, so it imports no model at the
top: ``start`` sets Django up, on the database the rebuild reads (a test's own, say), and only
then does ``fold_games`` reach the models.
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


def fold_games(game_ids: tuple[int, ...]) -> Any:
    from analytics.folding import fold_games as fold

    return fold(game_ids)
