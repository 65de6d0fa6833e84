"""The start-up check: every game the engine knows has every part of its package."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games import engine
from games.bots.learning.network import initial
from games.variants import GAMES
from games.variants.base import ExpertBot, Game, HowToPlay
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
    "bots": ({}, "bots", "no random, greedy, search, expert bot"),
    "expert": (None, "Expert bot (its value network)", "no entry"),
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


EXPERT_PART = "The game 'duel' lacks its Expert bot (its value network)"


def with_expert(monkeypatch: pytest.MonkeyPatch, **parts: Any) -> ExpertBot:
    """Duel's Expert with ``parts`` replaced, put in a copy of the game in the registry."""
    expert = dataclasses.replace(GAMES["duel"].expert, **parts)
    monkeypatch.setitem(GAMES, "duel", without("duel", expert=expert))
    return expert


def test_an_expert_without_its_network_file_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with_expert(monkeypatch, network=tmp_path / "expert.npz")

    [error] = check_every_game_is_complete()

    assert error.id == "games.E001"
    assert error.msg == f"{EXPERT_PART}: no network file {tmp_path / 'expert.npz'}."
    with pytest.raises(SystemCheckError, match=re.escape(EXPERT_PART)):
        call_command("check")


@pytest.mark.parametrize("content", [b"", b"not a network", b"PK\x03\x04 a truncated zip"])
def test_an_expert_whose_network_file_does_not_load_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: bytes
) -> None:
    broken = tmp_path / "expert.npz"
    broken.write_bytes(content)
    with_expert(monkeypatch, network=broken)

    [error] = check_every_game_is_complete()

    assert error.msg.startswith(f"{EXPERT_PART}: a network file that does not load ({broken}: ")


def test_an_expert_whose_network_reads_other_features_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    features = GAMES["duel"].expert.features
    other = tmp_path / "expert.npz"
    initial(features + 1, (8,), seed=1).save(other)
    with_expert(monkeypatch, network=other)

    [error] = check_every_game_is_complete()

    assert error.msg == (
        f"{EXPERT_PART}: a network of {features + 1} inputs in {other}, for {features} features."
    )


def test_an_expert_whose_encoder_disagrees_with_its_feature_count_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    features = GAMES["duel"].expert.features
    network = tmp_path / "expert.npz"
    initial(features - 1, (8,), seed=1).save(network)
    with_expert(monkeypatch, network=network, features=features - 1)

    [error] = check_every_game_is_complete()

    assert error.msg == (
        f"{EXPERT_PART}: an encoder whose rows at a table of 2 hold {features} numbers, "
        f"not {features - 1}."
    )


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
