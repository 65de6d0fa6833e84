"""A Duel card on its player's page says whether they can afford it and, if not, what it
lacks; gold shows where it covers a shortfall; a 5-Gem card waits for a card with a bonus."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import engine
from games.commands import lobby
from games.commands.lobby import UserSeat
from tests.engine.duel.positions import hand, position

pytestmark = pytest.mark.django_db


def card_on_page(page: str, card: int) -> str:
    """The words and classes of card ``card`` in the pyramid, tags dropped but for its own."""
    found = re.search(rf'<article class="([^"]*)" data-card="{card}".*?</article>', page, re.S)
    assert found is not None, f"card {card} is not on the page"
    words = re.sub(r"<[^>]+>", " ", found.group(0))
    return found.group(1) + " | " + html.unescape(re.sub(r"\s+", " ", words))


def test_affordable_with_gold_short_and_five_gem_cards_read_as_such(alice: User, bob: User) -> None:
    # Alice holds two black tokens and a gold: card 18 (cost 3 black) is hers with the gold;
    # card 13 (cost 3 red) lacks three reds, of which the gold covers one; the 5-Gem card 25
    # needs a card with a bonus first.
    state = position(hands=[hand({"black": 2, "gold": 1}), hand()], pyramid={1: [13, 18, 25]})
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=3,
                             start_position=engine.view(state, None))  # fmt: skip
    client = Client()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()

    affordable = card_on_page(page, 18)
    assert "is-affordable" in affordable
    assert "has-actions" in affordable
    assert "gold covers 1K" in affordable
    assert "Buy" in affordable
    short = card_on_page(page, 13)
    assert "is-affordable" not in short
    assert "needs 3R, gold covers 1" in short
    five_gem = card_on_page(page, 25)
    assert "needs a card with a bonus" in five_gem
    assert "5-Gem card" in five_gem
    assert "none" not in five_gem

    # The opponent's page shows the same cards without Alice's reckoning.
    other = Client()
    other.force_login(bob)
    theirs = card_on_page(other.get(f"/games/{game.pk}/").content.decode(), 18)
    assert "gold covers" not in theirs
