"""The start-up check: every game the engine knows has every part the web side needs."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games import engine
from games.variants.completeness import PARTS, check_every_game_is_complete
from games.variants.presenters import PRESENTERS
from notifications import position


def test_every_game_of_the_engine_is_complete_today() -> None:
    assert engine.VARIANTS == ("splendor", "duel")
    assert check_every_game_is_complete() == []
    call_command("check")  # raises SystemCheckError on any error


def test_a_game_the_engine_knows_without_any_web_part_is_refused_part_by_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "VARIANTS", (*engine.VARIANTS, "hanabi"))

    errors = check_every_game_is_complete()

    assert {error.id for error in errors} == {"games.E001"}
    assert [error.msg.split(":")[0] for error in errors] == [
        f"The game 'hanabi' lacks its {part.name}" for part in PARTS
    ]
    with pytest.raises(SystemCheckError, match="The game 'hanabi' lacks its mail position"):
        call_command("check")


def test_a_game_without_its_mail_position_is_named_with_the_one_part_it_lacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(position.POSITION_BUILDERS, "duel")

    [error] = check_every_game_is_complete()

    assert error.id == "games.E001"
    assert error.msg == "The game 'duel' lacks its mail position: no builder."
    assert "notifications.position" in error.hint


def test_a_missing_template_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    board = PRESENTERS["duel"]
    monkeypatch.setitem(
        PRESENTERS, "duel", type(board)(**{**board.__dict__, "board_template": "games/no.html"})
    )

    [error] = check_every_game_is_complete()

    assert (
        error.msg == "The game 'duel' lacks its replay board template: no template games/no.html."
    )


def test_a_registry_entry_for_a_game_the_engine_does_not_know_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(PRESENTERS, "chess", PRESENTERS["splendor"])

    [error] = check_every_game_is_complete()

    assert error.id == "games.E002"
    assert "'chess'" in error.msg
    assert "games.variants.presenters.PRESENTERS" in error.msg
