"""Every way a game file comes in (the upload form, the API, ``manage.py import_game``) has the
same limits, read by one reader: a file nested thousands deep or over 5 MB gets a clear refusal
at each door, and nothing is stored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game, GameEvent

LIMITS = "a game file is at most 5 MB, arrays and objects at most 32 deep, at most 5000 moves"
"""How every door words the limits, so that a refused uploader learns all of them at once."""

DEEP = b"[" * 2000 + b"]" * 2000
JUST_TOO_DEEP = b"[" * 33 + b"]" * 33
OVER_FIVE_MB = b'{"format": "splendor-online/game/1", "x": "' + b"x" * (5 * 1024 * 1024) + b'"}'

FILES = {
    "2000 deep": (DEEP, "more than 32 deep"),
    "33 deep": (JUST_TOO_DEEP, "more than 32 deep"),
    "over 5 MB": (OVER_FIVE_MB, "larger than 5 MB"),
}


def stored() -> tuple[int, int]:
    return Game.objects.count(), GameEvent.objects.count()


def through_the_form(user: User, content: bytes, tmp_path: Path) -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    upload = SimpleUploadedFile("game.json", content, content_type="application/json")
    response = client.post("/games/import/", {"file": upload, "is_public": "on"})
    return response.status_code, response.content.decode()


def through_the_api(user: User, content: bytes, tmp_path: Path) -> tuple[int, str]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.generic(
        "POST", "/api/v1/games/import/", content, content_type="application/json"
    )
    return response.status_code, response.json()["error"]["code"] + ": " + (
        response.json()["error"]["message"]
    )


def through_the_command(user: User, content: bytes, tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    with pytest.raises(CommandError) as refusal:
        call_command("import_game", str(path), "--user", user.username)
    return 1, str(refusal.value)


DOORS: dict[str, Callable[[User, bytes, Path], tuple[int, str]]] = {
    "form": through_the_form,
    "api": through_the_api,
    "command": through_the_command,
}


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("file", ["2000 deep", "33 deep"])
def test_a_file_nested_too_deep_is_refused_clearly_at_every_door(
    door: str, file: str, alice: User, tmp_path: Path
) -> None:
    content, words = FILES[file]
    before = stored()

    status, said = DOORS[door](alice, content, tmp_path)

    assert status == {"form": 400, "api": 400, "command": 1}[door]
    assert words in said
    assert LIMITS in said
    if door == "api":
        assert said.startswith("import_rejected: ")
    assert stored() == before


@pytest.mark.parametrize("door", DOORS)
def test_a_file_over_five_megabytes_is_refused_clearly_at_every_door(
    door: str, alice: User, tmp_path: Path
) -> None:
    content, words = FILES["over 5 MB"]
    before = stored()

    status, said = DOORS[door](alice, content, tmp_path)

    assert status == {"form": 400, "api": 413, "command": 1}[door]
    if door == "api":
        assert said.startswith("request_too_large: ")
        assert str(5 * 1024 * 1024) in said
    else:
        assert words in said
        assert LIMITS in said
    assert stored() == before
