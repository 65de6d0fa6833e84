"""Turn mail of both games speaks in words and shows the position its reader may see.

The mails come from real play: a bot and a player move through the services, the bot's turns
run in-process after commit, and the mail goes out as it does in the quick start.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail

from games import engine, variants
from games.commands import lobby
from games.commands.lobby import BotSeat, UserSeat
from games.commands.play import game_take_action
from games.models import Game, GameEvent
from games.reads import game_view
from tests.web.tables import hidden_card_ids

pytestmark = pytest.mark.django_db(transaction=True)

RAW_ACTION_TYPES = {
    "take_gems", "reserve_card", "reserve_from_deck", "buy_card", "return_tokens",
    "choose_noble", "take_tokens", "take_line", "use_privilege", "take_gold",
    "choose_joker_colour", "take_matching_token", "steal_token", "choose_royal",
    "discard_tokens",
}  # fmt: skip
"""The JSON names of the actions of both games (docs/notation.md): code, not words."""


def mail_texts() -> list[str]:
    return [mail.body + "\n" + mail.alternatives[0][0] for mail in django_mail.outbox]


def play(game: Game, user: User, moves: int, choose: Any = None) -> None:
    """``user`` makes up to ``moves`` moves (the greedy bot's choice unless ``choose`` says)."""
    for index in range(moves):
        game = Game.objects.get(pk=game.pk)
        data = game_view.game_view_for_viewer(game, user)
        if data["status"] != "active":
            return
        if data["acting_seat"] != data["viewer_seat"]:
            return
        view = data["state"]
        action = (choose and choose(view, data["legal_actions"])) or engine.action_to_json(
            variants.choose_bot_action("greedy", view, seed=index)
        )
        game_take_action(game_id=game.pk, action=action, expected_version=game.version, user=user)


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_no_turn_mail_names_an_action_by_its_json_type(variant: str, alice: User) -> None:
    game = lobby.game_create(
        variant=variant, seats=[BotSeat("greedy"), UserSeat(alice)], created_by=alice, seed=3
    )
    play(game, alice, 12)

    played = set(
        GameEvent.objects.filter(game=game, kind="ActionTaken").values_list(
            "payload__action__type", flat=True
        )
    )
    texts = mail_texts()
    assert texts, "alice was sent no mail"
    assert any("Since your last turn" in text and "Greedy bot" in text for text in texts)
    for text in texts:
        for name in (RAW_ACTION_TYPES | played) - {"pass"}:
            assert not re.search(rf"\b{name}\b", text), f"{name!r} in a mail:\n{text}"


def take_gold_and_reserve_unseen(view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
    """Bob's policy: a gold whenever he can, spent on a blind reserve from the level 1 deck."""
    for kind in ("reserve_from_deck", "take_gold"):
        for action in legal:
            if action["type"] == kind and action.get("level", 1) == 1:
                return action
    return None


def test_a_duel_turn_mail_shows_the_position_as_the_reader_may_see_it(
    alice: User, bob: User
) -> None:
    game = lobby.game_create(
        variant="duel", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=5
    )
    for _ in range(3):
        while Game.objects.get(pk=game.pk).acting_seat == 0:
            play(game, alice, 1)
        while Game.objects.get(pk=game.pk).acting_seat == 1:
            play(game, bob, 1, choose=take_gold_and_reserve_unseen)
    game.refresh_from_db()
    assert game.acting_seat == 0
    mail = django_mail.outbox[-1]
    assert mail.to == ["alice@example.com"]
    text, html = mail.body, mail.alternatives[0][0]
    view = game_view.game_view_for_viewer(game, alice)["state"]
    blind = [card for card in view["players"][1]["reserved"] if card.get("hidden")]
    assert blind, "bob reserved no card unseen: the test shows nothing"

    for body in (text, html):
        assert "The table" in body
        for row, cells in enumerate(view["board"]):  # every space, as the page names it
            for column, colour in enumerate(cells):
                assert f"{'ABCDE'[column]}{row + 1} {colour or 'empty'}" in body
        for level in view["pyramid"]:
            for card in level:
                assert variants.GAMES["duel"].card_words(card)["text"] in body
        assert body.count("card reserved unseen") == len(blind)
        for card in hidden_card_ids(game, viewer_seat=0):  # decks and bob's blind reserves
            assert (
                variants.GAMES["duel"].card_words(engine.card_json(card, "duel"))["text"]
                not in body
            )
    assert "alice (you): 0 points, 0 crowns" in text
    assert re.search(r"- bob: 0 points, 0 crowns, 0 in one colour; \d privileges?; tokens ", text)
    assert "bob reserved a card from the level 1 deck, unseen" in text
