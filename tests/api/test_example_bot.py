"""The example bot of docs/api.md: the guide shows exactly the file, and the file plays a game.

The bot runs against a live server (a real HTTP server in a thread) and plays both seats of a
game with two users' tokens. Two players rather than a bot seat keep the test independent of
task delivery: with REDIS_URL set (CI) no Celery worker runs during the tests, so a bot seat
would never move.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from django.contrib.auth.models import User

from accounts import services as account_services
from games.models import Game, GameEvent

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLE = DOCS / "examples" / "api_bot.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_bot_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_shows_the_example_file_verbatim() -> None:
    guide = (DOCS / "api.md").read_text()

    blocks = re.findall(r"```python\n(.*?)```", guide, flags=re.DOTALL)

    assert EXAMPLE.read_text() in blocks, "docs/api.md must include docs/examples/api_bot.py"


def test_the_example_uses_only_requests_and_the_standard_library() -> None:
    imports = re.findall(r"^(?:from|import) (\w+)", EXAMPLE.read_text(), flags=re.MULTILINE)

    assert set(imports) <= {"__future__", "random", "sys", "time", "uuid", "requests"}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_example_bot_plays_a_game_to_its_end(
    live_server: object, make_user: Callable[..., User]
) -> None:
    tokens = [
        account_services.token_create(make_user(name), "example bot")[1]
        for name in ("ada", "grace")
    ]

    final = load_example().play(live_server.url, tokens, seed=3, timeout=240)  # type: ignore[attr-defined]

    assert final["status"] == "finished"
    assert final["result"]["winners"]
    game = Game.objects.get(pk=final["id"])
    assert GameEvent.objects.filter(game=game).count() == game.version == final["version"]
    assert {seat.user.username for seat in game.seats.select_related("user")} == {"ada", "grace"}
