"""What changed since the viewer's last turn is highlighted on the game page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from games.reads import game_view
from tests.web.tables import act

pytestmark = pytest.mark.django_db


def board_ids(game: Game, user: User) -> set[int]:
    view = game_view.game_view_for_viewer(Game.objects.get(pk=game.pk), user)["state"]
    return {card["id"] for row in view["board"] for card in row if card}


def new_cards(page: str) -> set[int]:
    return {int(card) for card in re.findall(r'is-new" data-card="(\d+)"', page)}


def test_cards_dealt_since_my_last_turn_are_marked_new(
    alice: User, alice_client: Client, two_player_game: Game
) -> None:
    alice_client.get(f"/games/{two_player_game.pk}/")  # alice sees the board at her first turn
    before = board_ids(two_player_game, alice)
    first, second = sorted(before)[:2]
    act(two_player_game, {"type": "reserve_card", "card": first})  # alice
    act(two_player_game, {"type": "reserve_card", "card": second})  # bob

    page = alice_client.get(f"/games/{two_player_game.pk}/").text

    dealt = board_ids(two_player_game, alice) - before
    assert len(dealt) == 2
    assert new_cards(page) == dealt
    assert re.search(r'class="player[^"]*is-changed" data-seat="1"', page)
    assert '<li class="is-new">bob reserved' in page


def test_a_first_visit_marks_no_card_new_and_a_spectator_sees_no_highlights(
    alice: User, carol_client: Client, alice_client: Client, two_player_game: Game
) -> None:
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})
    act(two_player_game, {"type": "reserve_card", "card": min(board_ids(two_player_game, alice))})

    players_page = alice_client.get(f"/games/{two_player_game.pk}/").text
    spectators_page = carol_client.get(f"/games/{two_player_game.pk}/").text

    assert not new_cards(players_page)
    assert '<li class="is-new">bob reserved' in players_page  # the log still knows
    assert not new_cards(spectators_page)
    assert "is-changed" not in spectators_page
    assert 'class="is-new"' not in spectators_page
