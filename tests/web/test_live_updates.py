"""Live updates: the page asks for the game's version (a cheap ETag check) and then for the
regions that changed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands.lobby import OpenSeat, UserSeat
from games.models import Game
from tests.web.tables import act, create_game

pytestmark = pytest.mark.django_db


def test_the_version_is_an_etag_and_unchanged_gets_304(
    client: Client, two_player_game: Game
) -> None:
    first = client.get(f"/games/{two_player_game.pk}/version")
    again = client.get(f"/games/{two_player_game.pk}/version", HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200
    assert first.json() == {"version": two_player_game.version}
    assert first["ETag"] == f'"{two_player_game.version}"'
    assert again.status_code == 304
    assert again.content == b""


def test_a_move_changes_the_version(client: Client, two_player_game: Game) -> None:
    etag = client.get(f"/games/{two_player_game.pk}/version")["ETag"]

    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})
    response = client.get(f"/games/{two_player_game.pk}/version", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200
    assert response.json()["version"] == two_player_game.version + 1


def test_asking_for_the_version_is_one_small_query(
    client: Client, two_player_game: Game, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1) as context:
        client.get(
            f"/games/{two_player_game.pk}/version",
            HTTP_IF_NONE_MATCH=f'"{two_player_game.version}"',
        )

    sql = context.captured_queries[0]["sql"]
    assert sql.startswith('SELECT "games_game"."version"')
    assert "snapshot" not in sql
    assert "ORDER BY" not in sql


def test_a_private_game_version_is_only_for_its_players(
    alice: User, alice_client: Client, bob_client: Client, client: Client
) -> None:
    game = create_game(UserSeat(alice), OpenSeat(), creator=alice, is_public=False)

    assert alice_client.get(f"/games/{game.pk}/version").status_code == 200
    assert bob_client.get(f"/games/{game.pk}/version").status_code == 404
    assert client.get(f"/games/{game.pk}/version").status_code == 404


def test_the_game_page_polls_only_while_the_game_is_in_progress(
    alice_client: Client, two_player_game: Game
) -> None:
    page = alice_client.get(f"/games/{two_player_game.pk}/").text

    assert f'data-version-url="/games/{two_player_game.pk}/version"' in page
    assert f'data-regions-url="/games/{two_player_game.pk}/regions/"' in page
    assert 'src="/static/game.js"' in page
    alice_client.post(f"/games/{two_player_game.pk}/resign/")
    assert "data-version-url" not in alice_client.get(f"/games/{two_player_game.pk}/").text


def test_the_regions_of_a_game_that_ended_ask_the_page_to_reload(
    alice_client: Client, bob_client: Client, two_player_game: Game
) -> None:
    alice_client.post(f"/games/{two_player_game.pk}/resign/")

    response = bob_client.get(f"/games/{two_player_game.pk}/regions/", HTTP_HX_REQUEST="true")

    assert response["HX-Refresh"] == "true"


def test_htmx_comes_from_the_package_and_forms_swap_regions(
    alice_client: Client, two_player_game: Game
) -> None:
    page = alice_client.get(f"/games/{two_player_game.pk}/").text

    assert "/static/django_htmx/htmx" in page
    # Every script and stylesheet is the site's own: none from a CDN or any other host. (Not a
    # search for "cdn" in the page: a form's random CSRF token can spell it.)
    sources = re.findall(r'<script[^>]*\ssrc="([^"]*)"', page)
    sources += re.findall(r'<link[^>]*\shref="([^"]*)"', page)
    assert sources
    assert all(source.startswith("/static/") for source in sources), sources
    assert f'hx-post="/games/{two_player_game.pk}/act/" hx-swap="none"' in page
    assert 'id="region-board" data-region="board"' in page
