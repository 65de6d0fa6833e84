"""A finished game's result where a player meets it: the game page's result panel, the lobby's
lists, My games, the public finished games, and the API (the game, the list of games, the
history), each read as the player gets it, over HTTP.

The API's result is checked against the committed schema's ``GameResult`` (docs/openapi.yaml,
which tests/api/test_schema.py holds to the code), and must be the same in all three answers.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts import services as account_services
from games.models import Game

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "docs" / "openapi.yaml"


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", fragment))


def _page(user: User, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return str(response.content.decode())


def banner(user: User, game: Game) -> tuple[str, str, dict[str, str]]:
    """The result panel's headline, its reason, and each player's split of points."""
    page = _page(user, f"/games/{game.pk}/")
    panel = page[page.index('<section class="result panel"') :]
    text = _text(panel[: panel.index("</section>")])
    headline = re.search(r'<h1 class="result-headline">(.*?)</h1>', text)
    why = re.search(r'<p class="result-why">(.*?)</p>', text)
    splits = dict(
        re.findall(r"<th scope=\"row\">(\w+).*?<small class=\"muted\">(.*?)</small>", text)
    )
    assert headline is not None
    return headline.group(1), why.group(1) if why else "", splits


def my_games_row(user: User, game: Game) -> tuple[str, str]:
    """The row of ``game`` in ``user``'s My games: their own result, and who won and how."""
    page = _page(user, "/games/mine/")
    row = re.search(rf'<tr class="history-row[^"]*" data-game="{game.pk}">(.*?)</tr>', page, re.S)
    assert row is not None, f"game {game.pk} is not in My games"
    cell = re.search(r'<td class="my-result">(.*?)</td>', row.group(1), re.S)
    assert cell is not None
    mine = re.search(r'<span class="pill result--\w+">(.*?)</span>', cell.group(1))
    ending = re.search(r'<span class="ending">(.*?)</span>', cell.group(1))
    assert mine is not None
    assert ending is not None
    return _text(mine.group(1)), _text(ending.group(1))


def lists_ending(user: User, game: Game) -> str:
    """Who won ``game`` and how, as the lobby (its finished games and the player's own) and
    the public finished games list it; the lists must agree."""
    lobby = _page(user, "/lobby/")
    pills = re.findall(
        rf'href="/games/{game.pk}/".*?<span class="pill pill--done">(.*?)</span>', lobby, re.S
    )
    assert len(pills) == 2, "in the player's finished games and the recently finished"
    finished = _page(user, "/games/finished/")
    row = re.search(rf'data-game="{game.pk}">.*?<td class="ending">(.*?)</td>', finished, re.S)
    assert row is not None
    endings = {_text(pill) for pill in pills} | {_text(row.group(1))}
    assert len(endings) == 1, endings
    return endings.pop()


def _schema_of(component: str) -> jsonschema.Draft7Validator:
    components = yaml.safe_load(SCHEMA_FILE.read_text())["components"]
    return jsonschema.Draft7Validator(
        {"$ref": f"#/components/schemas/{component}", "components": components}
    )


GAME_RESULT = _schema_of("GameResult")


def api_result(user: User, game: Game) -> dict[str, Any]:
    """``game``'s result in the API: the game's answer, the same in the list of games and in
    the player's history, and valid under the committed schema."""
    _token, raw_token = account_services.token_create(user, "result tests")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    detail = client.get(f"/api/v1/games/{game.pk}/").json()["result"]
    listed = client.get("/api/v1/games/", {"mine": "true", "status": "finished"}).json()
    history = client.get("/api/v1/history/", {"scope": "mine"}).json()
    [summary] = [item["result"] for item in listed["results"] if item["id"] == game.pk]
    [row] = [item["result"] for item in history["results"] if item["id"] == game.pk]
    assert summary == detail
    assert row == detail
    GAME_RESULT.validate(detail)
    result: dict[str, Any] = detail
    return result
