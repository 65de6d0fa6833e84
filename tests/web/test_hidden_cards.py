"""No page shows a card its viewer may not see: not the decks, not others' blind reserves.

Every face-up card on a page carries ``data-card="<id>"`` and every card form names its card,
so scanning those attributes finds every card a page reveals. Hidden cards are drawn as backs
with no id at all.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import UserSeat
from games.models import Game
from tests.web.tables import game_at, hidden_card_ids

pytestmark = pytest.mark.django_db

CARD_IN_PAGE = re.compile(r'data-card="(\d+)"|name="card" value="(\d+)"')
HTMX = {"HTTP_HX_REQUEST": "true"}


def cards_shown(page: str) -> set[int]:
    return {int(first or second) for first, second in CARD_IN_PAGE.findall(page)}


def every_page_of(client: Client, game: Game) -> dict[str, str]:
    pages = {
        "game": client.get(f"/games/{game.pk}/").text,
        "regions": client.get(f"/games/{game.pk}/regions/", **HTMX).text,
        "history": client.get(f"/games/{game.pk}/history/").text,
        "resign": client.get(f"/games/{game.pk}/resign/").text,
        "lobby": client.get("/lobby/").text,
        "home": client.get("/").text,
    }
    return pages


@pytest.fixture
def game_with_blind_reserve(alice: User, bob: User) -> Game:
    """Alice to play; bob holds a card he reserved unseen from a deck."""
    return game_at("blind_reserve", UserSeat(alice), UserSeat(bob), creator=alice)


@pytest.mark.parametrize("viewer", ["alice", "carol", "guest"])
def test_no_page_of_a_game_in_progress_shows_a_hidden_card(
    request: pytest.FixtureRequest, game_with_blind_reserve: Game, viewer: str
) -> None:
    client = request.getfixturevalue(f"{viewer}_client") if viewer != "guest" else Client()
    seat = 0 if viewer == "alice" else None
    hidden = hidden_card_ids(game_with_blind_reserve, viewer_seat=seat)

    pages = every_page_of(client, game_with_blind_reserve)

    assert len(cards_shown(pages["game"])) >= 12  # the scan does see the face-up cards
    for name, page in pages.items():
        assert cards_shown(page).isdisjoint(hidden), f"{name} shows a hidden card"


def test_a_blind_reserve_is_a_back_with_its_level_for_the_others(
    alice_client: Client, game_with_blind_reserve: Game
) -> None:
    page = alice_client.get(f"/games/{game_with_blind_reserve.pk}/").text

    bob = page[page.index('data-seat="1"') :]
    assert re.search(
        r'class="card card-back card-back--\d card--small" title="A level \d card', bob
    )


def test_the_owner_sees_the_card_they_reserved_blind(
    bob: User, bob_client: Client, game_with_blind_reserve: Game
) -> None:
    blind = hidden_card_ids(game_with_blind_reserve, viewer_seat=None) - hidden_card_ids(
        game_with_blind_reserve, viewer_seat=1
    )

    page = bob_client.get(f"/games/{game_with_blind_reserve.pk}/").text

    assert blind
    assert blind <= cards_shown(page)
