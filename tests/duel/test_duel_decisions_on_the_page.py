"""Splendor Duel: what the page gives its script to make each decision on the table.

Each thing a click decides with (a token of the board, the bag, a colour of a panel, a royal)
carries exactly the JSON of one of the decision's buttons, and together they offer every one of
them; the buttons stay, for a page without JavaScript. Only the player to act gets them, and a
token of the opponent's is offered in the opponent's panel, a colour of one's own in one's own.
The browser tests (tests/browser/test_duel_decisions_on_the_table.py) click them.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from games.variants.duel.clicks import TableChoices
from games.variants.duel.words import space_name
from tests.duel.decisions import (
    AFTER_A_PURCHASE,
    NINE_TOKENS,
    THREE_RESERVED,
    WITH_A_BAG,
    WITH_A_PRIVILEGE,
    duel_at,
    takes_a_gold,
    takes_the_top_row,
)
from tests.duel.test_duel_pages import buttons

pytestmark = pytest.mark.django_db

ON_THE_TABLE = re.compile(
    r'<[^>]*\bduel-pick\b[^>]*\bdata-action="([^"]*)"|\bdata-privilege="([^"]*)"'
)
"""A thing that decides by a click (its action), or a token a privilege may take (its action)."""


def page_of(user: User, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


def on_the_table(page: str) -> list[dict[str, Any]]:
    found = ON_THE_TABLE.findall(page)
    return [json.loads(html.unescape(pick or privilege)) for pick, privilege in found]


def panel(page: str, *, mine: bool) -> str:
    """The viewer's panel, or the other player's."""
    panels = re.findall(r'<article class="duel-player[^"]*".*?</article>', page, re.S)
    return next(item for item in panels if ("is-viewer" in item.split(">")[0]) == mine)


WHERE = {
    "choose_joker_colour": "mine",
    "take_matching_token": "board",
    "steal_token": "theirs",
    "choose_royal": "pyramid",
}
"""Where each decision's things are: my panel, the board, the opponent's panel, the royals."""


@pytest.mark.parametrize("kind", AFTER_A_PURCHASE)
def test_each_choice_of_a_decision_is_a_thing_on_the_table_carrying_its_button_s_json(
    kind: str, alice: User, bob: User
) -> None:
    state, purchase = AFTER_A_PURCHASE[kind]
    game = duel_at(alice, bob, state, purchase)
    where = WHERE[kind]
    page = page_of(alice, game)

    offered = buttons(page)
    assert offered
    assert {action["type"] for action in offered} == {kind}
    assert sorted(map(json.dumps, on_the_table(page))) == sorted(map(json.dumps, offered))
    assert 'class="duel-table-hint"' in page
    assert re.search(r'<details class="duel-choices" data-kind="' + kind + '" open>', page)
    if where in ("mine", "theirs"):
        assert len(on_the_table(panel(page, mine=where == "mine"))) == len(offered)
    assert on_the_table(page_of(bob, game)) == []  # the player waiting gets none


def test_a_privilege_may_take_any_token_but_gold_and_the_bag_replenishes(
    alice: User, bob: User
) -> None:
    game = duel_at(alice, bob, WITH_A_PRIVILEGE)
    page = page_of(alice, game)

    offered = buttons(page)
    privileges = [action for action in offered if action["type"] == "use_privilege"]
    assert len(privileges) == 22  # a full board but its three gold
    golds = [action for action in offered if action["type"] == "take_gold"]
    assert len(golds) == 3  # each gold is a move of its own (then a card is reserved)
    table = sorted(map(json.dumps, on_the_table(page)))
    assert table == sorted(map(json.dumps, privileges + golds))
    assert 'class="btn btn-small duel-privilege-spend"' in page
    assert "duel-table-hint" not in page  # the turn's main moves: no list opened, no hint

    page = page_of(alice, duel_at(alice, bob, WITH_A_BAG))
    assert {"type": "replenish"} in buttons(page)
    assert re.findall(r'class="duel-bag duel-pick" data-action="([^"]*)"', page) == [
        html.escape(json.dumps({"type": "replenish"}, separators=(",", ":")))
    ]


def test_the_tokens_to_put_back_are_offered_in_my_panel_only(alice: User, bob: User) -> None:
    game = duel_at(alice, bob, NINE_TOKENS, takes_the_top_row)
    page = page_of(alice, game)

    assert {action["type"] for action in buttons(page)} == {"discard_tokens"}
    mine = panel(page, mine=True)
    chips = dict(re.findall(r'class="duel-chip duel-put-back" data-colour="(\w+)" '
                            r'data-held="(\d+)"', mine))  # fmt: skip
    assert chips == {"white": "4", "blue": "3", "green": "2", "red": "2", "black": "1"}
    assert 'data-count="2"' in mine
    assert "duel-put-back" not in panel(page, mine=False)
    assert "duel-put-back" not in page_of(bob, game)


GOLD = re.compile(r'<button type="button" class="duel-gold duel-pick" '
                  r'data-space="(\w+)" data-action="([^"]*)"')  # fmt: skip
GOLD_OFF = re.compile(r'<button type="button" class="duel-gold-off" data-space="(\w+)" '
                      r'title="([^"]*)"')  # fmt: skip


def test_each_gold_on_the_board_is_its_own_take_and_reserve_and_the_cards_follow(
    alice: User, bob: User
) -> None:
    game = duel_at(alice, bob, WITH_A_PRIVILEGE)
    page = page_of(alice, game)
    golds = {space: json.loads(html.unescape(action)) for space, action in GOLD.findall(page)}
    offered = [action for action in buttons(page) if action["type"] == "take_gold"]
    assert sorted(map(json.dumps, golds.values())) == sorted(map(json.dumps, offered))
    assert set(golds) == {"C5", "D5", "E5"}  # the three golds, each on its own space
    assert all(space_name(action["space"]) == space for space, action in golds.items())
    assert not GOLD.findall(page_of(bob, game))  # the player waiting gets none,
    assert not GOLD_OFF.findall(page_of(bob, game))  # nor a reason: it is not their move

    page = page_of(alice, duel_at(alice, bob, WITH_A_PRIVILEGE, takes_a_gold))
    assert {action["type"] for action in buttons(page)} == {"reserve_card", "reserve_from_deck"}
    assert "Click a card of the pyramid, or a deck&#x27;s Reserve unseen" in page
    assert page.count("duel-card-move duel-deck-move") == 3  # a deck's top card, each level
    assert re.search(r'class="btn btn-small btn-reserve duel-card-move"', page)


def test_a_gold_that_cannot_be_taken_says_why(alice: User, bob: User) -> None:
    game = duel_at(alice, bob, THREE_RESERVED)
    page = page_of(alice, game)

    assert "take_gold" not in {action["type"] for action in buttons(page)}
    assert not GOLD.findall(page)
    assert dict(GOLD_OFF.findall(page)) == dict.fromkeys(
        ("C5", "D5", "E5"), "Take this gold: three reserved already"
    )
    assert not GOLD_OFF.findall(page_of(bob, game))


def test_a_gold_says_no_card_is_left_to_reserve_once_the_decks_and_pyramid_are_empty() -> None:
    choices = TableChoices([], tokens_to_discard=0)
    empty = {"phase": "main", "decks": [0, 0, 0], "pyramid": [[None] * 5, [None] * 4, [None] * 3]}
    me = {"reserved": []}

    assert choices.why_no_gold(empty, me) == "no card left to reserve"
    assert choices.why_no_gold({**empty, "decks": [0, 1, 0]}, me) == ""
    assert choices.why_no_gold({**empty, "phase": "reserve"}, me) == ""
    assert choices.why_no_gold(empty, None) == ""  # not choosing a move: nothing to explain
