"""An imported game counts against the hourly cap on new games, and it is shown for what it is:
a file someone uploaded. Its seats are the file's names as text, never a registered player's,
and every page and export marks it as imported."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from analytics import player_selectors, projections
from analytics.filters import StatsFilter
from games.models import Game, GameEvent, Seat
from games.reads import exports
from tests.finished_games import finished_game

IMPORTED = "Imported from an uploaded file, not played here"


@pytest.fixture
def document(alice: User, bob: User) -> dict[str, Any]:
    return exports.game_document_for_viewer(finished_game([alice, bob], 17), None)


def page_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def upload(client: Client, document: dict[str, Any]) -> Any:
    file = SimpleUploadedFile("game.json", json.dumps(document).encode(), "application/json")
    return client.post("/games/import/", {"file": file, "is_public": "on"})


def stored() -> tuple[int, int]:
    return Game.objects.count(), GameEvent.objects.count()


def test_imports_through_the_form_count_against_the_hourly_cap(
    document: dict[str, Any], carol: User, settings: Any
) -> None:
    settings.GAMES_MAX_CREATED_PER_HOUR = 2
    client = page_client(carol)
    assert [upload(client, document).status_code for _ in range(2)] == [303, 303]
    before = stored()

    refused = upload(client, document)

    assert refused.status_code == 429
    assert "You created 2 games in the last hour" in refused.content.decode()
    assert stored() == before


def test_imports_through_the_api_count_against_the_hourly_cap(
    document: dict[str, Any], carol: User, settings: Any
) -> None:
    settings.GAMES_MAX_CREATED_PER_HOUR = 2
    client = api_client(carol)
    for _ in range(2):
        assert client.post("/api/v1/games/import/", document, format="json").status_code == 201
    before = stored()

    refused = client.post("/api/v1/games/import/", document, format="json")

    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "limit_reached"
    assert stored() == before


@pytest.fixture
def alice_vs_alice(document: dict[str, Any], alice: User, bob: User) -> Game:
    """Bob uploads a game between "alice" and "alice", which alice never played."""
    for seat in document["seats"]:
        seat["name"] = "alice"
    response = api_client(bob).post("/api/v1/games/import/", document, format="json")
    assert response.status_code == 201
    return Game.objects.get(pk=response.json()["id"])


def test_an_imported_games_names_are_text_and_never_a_registered_player(
    alice_vs_alice: Game, alice: User
) -> None:
    game = alice_vs_alice
    assert [seat.user_id for seat in Seat.objects.filter(game=game)] == [None, None]
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/replay/", "/games/finished/"):
        page = Client().get(url).content.decode()
        assert "alice" in page
        assert "/players/alice/" not in page
        assert f"/stats/players/{alice.pk}/" not in page
    mine = page_client(alice).get("/games/mine/").content.decode()
    assert f'data-game="{game.pk}"' not in mine
    assert f'data-game="{game.pk}"' not in Client().get("/players/alice/").content.decode()
    listed = api_client(alice).get("/api/v1/history/", {"scope": "mine"}).json()["results"]
    assert game.pk not in [row["id"] for row in listed]


def test_an_imported_game_is_in_nobodys_statistics(alice_vs_alice: Game, alice: User) -> None:
    projections.count_game(alice_vs_alice.pk)

    assert player_selectors.player_statistics(alice.pk, StatsFilter())["games"] == 0


def test_an_imported_game_is_marked_on_every_page_and_export(alice_vs_alice: Game) -> None:
    game, client = alice_vs_alice, Client()
    row = client.get("/games/finished/").content.decode().split(f'data-game="{game.pk}"')[1]
    assert '<span class="pill">imported</span>' in row.split("</tr>")[0]
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/replay/"):
        assert IMPORTED in client.get(url).content.decode(), url
    assert IMPORTED in client.get(f"/games/{game.pk}/export.txt").content.decode()
    assert IMPORTED in client.get(f"/api/v1/games/{game.pk}/export/text/").content.decode()
    assert client.get(f"/games/{game.pk}/export.json").json()["origin"] == {"kind": "import"}
    for path in ("export/", "export/notation/"):
        exported = client.get(f"/api/v1/games/{game.pk}/{path}").json()
        assert exported["origin"] == {"kind": "import"}, path
