"""The start-up check: every game the engine knows has every part of its package."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games import engine
from games.variants import GAMES
from games.variants.base import Game, HowToPlay
from games.variants.completeness import check_every_game_is_complete


def without(variant: str, **parts: Any) -> Game:
    """The game ``variant`` with ``parts`` replaced (emptied, or pointing nowhere)."""
    return dataclasses.replace(GAMES[variant], **parts)


def test_every_game_of_the_engine_is_complete_today() -> None:
    assert engine.VARIANTS == ("splendor", "duel")
    assert tuple(GAMES) == engine.VARIANTS
    assert check_every_game_is_complete() == []
    call_command("check")  # raises SystemCheckError on any error


def test_a_game_the_engine_knows_without_a_package_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "VARIANTS", (*engine.VARIANTS, "hanabi"))

    [error] = check_every_game_is_complete()

    assert error.id == "games.E001"
    assert error.msg == "The game 'hanabi' lacks its package: games.variants.GAMES has no entry."
    assert "games/variants/hanabi/" in error.hint
    with pytest.raises(SystemCheckError, match="The game 'hanabi' lacks its package"):
        call_command("check")


EMPTIED = {
    "title": ("", "web side (title, page forms)", "no title"),
    "blurb": ("", "web side (title, page forms)", "no blurb"),
    "action_from_form": (None, "web side (title, page forms)", "no action_from_form"),
    "remember_turn": (None, "web side (title, page forms)", "no remember_turn"),
    "parse_api_action": (None, "API action shapes", "no parse_api_action"),
    "action_schema": (None, "API action shapes", "no action_schema"),
    "table_template": ("", "page templates", "no table_template"),
    "partials": ("", "page templates", "no partials"),
    "describe_action": (None, "presenter (words, table)", "no describe_action"),
    "consequences": (None, "presenter (words, table)", "no consequences"),
    "table": (None, "presenter (words, table)", "no table"),
    "ending": (None, "ending (ways to win, split of points)", "no entry"),
    "board_template": ("", "replay board template", "no board_template"),
    "bots": ({}, "bots", "no random, greedy, search bot"),
    "analytics": (None, "analytics facts", "no entry"),
    "position_judge": (None, "analysis position judge", "no entry"),
    "mail_position": (None, "mail position", "no builder"),
    "card_words": (None, "mail position", "no card words"),
    "how_to_play": (None, "how-to-play page", "no how_to_play"),
}


def test_every_part_of_a_game_is_checked() -> None:
    fields = {field.name for field in dataclasses.fields(Game)}
    assert set(EMPTIED) == fields - {"variant"}


@pytest.mark.parametrize("field", sorted(EMPTIED))
def test_a_game_lacking_one_part_is_named_with_that_part(
    monkeypatch: pytest.MonkeyPatch, field: str
) -> None:
    empty, part, missing = EMPTIED[field]
    monkeypatch.setitem(GAMES, "duel", without("duel", **{field: empty}))

    [error] = check_every_game_is_complete()

    assert error.id == "games.E001"
    assert error.msg == f"The game 'duel' lacks its {part}: {missing}."
    assert "games/variants/duel/" in error.hint
    with pytest.raises(SystemCheckError, match=re.escape(f"The game 'duel' lacks its {part}:")):
        call_command("check")


def test_a_game_without_one_bot_level_is_named_with_the_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots = {level: chooser for level, chooser in GAMES["duel"].bots.items() if level != "search"}
    monkeypatch.setitem(GAMES, "duel", without("duel", bots=bots))

    [error] = check_every_game_is_complete()

    assert error.msg == "The game 'duel' lacks its bots: no search bot."


def test_an_ending_without_its_ways_to_win_is_named_with_what_it_lacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ending = dataclasses.replace(GAMES["duel"].ending, ways={}, points_besides_cards="")
    monkeypatch.setitem(GAMES, "duel", without("duel", ending=ending))

    [error] = check_every_game_is_complete()

    assert error.msg == (
        "The game 'duel' lacks its ending (ways to win, split of points): "
        "no ways nor points_besides_cards."
    )


def test_a_missing_template_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "duel", without("duel", board_template="games/no.html"))

    [error] = check_every_game_is_complete()

    assert (
        error.msg == "The game 'duel' lacks its replay board template: no template games/no.html."
    )


def test_a_how_to_play_page_without_its_template_or_its_pictures_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pictures = GAMES["duel"].how_to_play.examples  # type: ignore[union-attr]
    for guide, missing in (
        (HowToPlay(template="games/no.html", examples=pictures), "no template games/no.html"),
        (HowToPlay(template="games/how_to_play/duel.html", examples=None), "no examples"),  # type: ignore[arg-type]
    ):
        monkeypatch.setitem(GAMES, "duel", without("duel", how_to_play=guide))

        [error] = check_every_game_is_complete()

        assert error.msg == f"The game 'duel' lacks its how-to-play page: {missing}."


def test_a_missing_mail_template_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        Game, "mail_templates", property(lambda game: ("notifications/mail/position/no.txt",))
    )

    errors = check_every_game_is_complete()

    assert [error.msg for error in errors] == [
        f"The game {variant!r} lacks its mail position: "
        "no template notifications/mail/position/no.txt."
        for variant in engine.VARIANTS
    ]


def test_an_entry_for_a_game_the_engine_does_not_know_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(GAMES, "chess", GAMES["splendor"])

    [error] = check_every_game_is_complete()

    assert error.id == "games.E002"
    assert "'chess'" in error.msg
    assert "games.variants.GAMES" in error.msg


def test_a_game_filed_under_another_variant_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "duel", GAMES["splendor"])

    [error] = check_every_game_is_complete()

    assert error.id == "games.E002"
    assert error.msg == "games.variants.GAMES files the Game of 'splendor' under 'duel'."
