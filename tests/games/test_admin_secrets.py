"""Staff see a running game in the admin as a spectator does: no seed, no salt, no deck order.

Every admin page that shows a running game or its events is rendered and scanned for the
setup's secrets. Once the game is over, the setup and salt appear, and they match the
commitment published at the start.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.commands import lobby, play
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game, GameEvent
from games.records import projection
from games.vocabulary import EventKind
from tests.games.helpers import play_random, reload

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def running_game(alice: User) -> Game:
    """Alice against a bot, some moves in, holding a card reserved blind from a deck."""
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), BotSeat("greedy")], created_by=alice,
        seed=2**51 + 12345,
    )  # fmt: skip
    play.game_take_action(
        game_id=game.pk,
        action={"type": "reserve_from_deck", "level": 2},
        expected_version=reload(game).version,
        user=alice,
    )
    return play_random(reload(game), 6)


def setup_of(game: Game) -> dict[str, object]:
    started = GameEvent.objects.get(game=game, kind=EventKind.GAME_STARTED)
    return dict(started.payload)


def admin_pages(game: Game) -> list[str]:
    events = GameEvent.objects.filter(game=game).order_by("seq")
    return [
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_history", args=[game.pk]),
        reverse("admin:games_gameevent_changelist"),
        reverse("admin:games_gameevent_changelist") + f"?q={game.pk}",
        *(reverse("admin:games_gameevent_change", args=[event.pk]) for event in events),
        *(reverse("admin:games_gameevent_history", args=[event.pk]) for event in events),
    ]


def secrets_in(content: str, payload: dict[str, object]) -> list[str]:
    """What of the setup a page gives away: the seed, the salt, any deck's order."""
    setup = payload["setup"]
    assert isinstance(setup, dict)
    text = html.unescape(content)
    found = []
    if re.search(rf"\b{setup['seed']}\b", text):
        found.append("seed")
    if str(payload["salt"]) in text:
        found.append("salt")
    if '"decks"' in text or '"seed"' in text:
        found.append("setup fields")
    for deck in setup["decks"]:  # type: ignore[attr-defined]
        if json.dumps(deck[4:9])[1:-1] in text:
            found.append("deck order")
    return found


def test_no_admin_page_shows_the_setup_of_a_running_game(
    admin_client: Client, running_game: Game
) -> None:
    payload = setup_of(running_game)
    pages = admin_pages(running_game)

    leaks = {}
    for page in pages:
        response = admin_client.get(page)
        assert response.status_code == 200, page
        found = secrets_in(response.content.decode(), payload)
        if found:
            leaks[page] = found

    assert leaks == {}
    assert len(pages) > 2 * running_game.version  # every event's pages were looked at


def test_a_running_games_start_shows_what_a_spectator_sees(
    admin_client: Client, running_game: Game
) -> None:
    started = GameEvent.objects.get(game=running_game, kind=EventKind.GAME_STARTED)

    content = admin_client.get(reverse("admin:games_gameevent_change", args=[started.pk]))

    assert running_game.commitment in content.content.decode()


def test_once_the_game_is_over_the_admin_reveals_the_setup_matching_the_commitment(
    admin_client: Client, running_game: Game, alice: User
) -> None:
    play.game_resign(game_id=running_game.pk, user=alice)
    game = reload(running_game)
    payload = setup_of(game)
    started = GameEvent.objects.get(game=game, kind=EventKind.GAME_STARTED)

    content = admin_client.get(reverse("admin:games_gameevent_change", args=[started.pk]))
    page = content.content.decode()

    assert set(secrets_in(page, payload)) >= {"seed", "salt", "setup fields", "deck order"}
    assert projection.commitment_for(payload["setup"], str(payload["salt"])) == game.commitment
