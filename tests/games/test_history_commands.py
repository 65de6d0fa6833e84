"""manage.py export_games and import_game, through call_command."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.models import Game
from games.reads import exports
from tests.finished_games import finished_game


def test_export_games_writes_gzipped_json_lines(tmp_path: Path, alice: User, bob: User) -> None:
    games = [finished_game([alice, bob], seed) for seed in (1, 2)]
    finished_game([alice, bob], 3, is_public=False)
    target = tmp_path / "games.jsonl.gz"

    call_command("export_games", str(target))

    lines = gzip.decompress(target.read_bytes()).decode().splitlines()
    assert [json.loads(line)["game"] for line in lines] == [game.pk for game in games]


def test_import_game_imports_an_exported_file(tmp_path: Path, alice: User, bob: User) -> None:
    game = finished_game([alice, bob], 4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exports.game_document_for_viewer(game, None)))

    call_command("import_game", str(path), "--user", "bob")

    imported = Game.objects.exclude(pk=game.pk).get()
    assert imported.origin == {"kind": "import"}
    assert imported.created_by == bob
    assert imported.snapshot == game.snapshot


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not utf-8", "not UTF-8"),
        (b'{"format": "splendor-online/game/1", "variant": "duel"', "not valid JSON"),
        (b'{"format": "splendor-online/game/1", "variant": "chess"}', "Unknown variant"),
    ],
)
def test_import_game_refuses_bad_files_and_stores_nothing(
    tmp_path: Path, content: bytes, message: str, db: None
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("import_game", str(path))
    assert Game.objects.count() == 0
