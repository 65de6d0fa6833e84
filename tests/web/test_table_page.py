"""The game page as a table: names as they are now, buying power and what a card needs, the
rematch, "your turn" first in the lists, no caching, and a Content-Security-Policy that needs no
inline script or style."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Profile
from games.commands import lobby, play
from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from games.models import Game, Seat
from games.vocabulary import Status
from tests.web.tables import act, bots_paused, create_game, play_line

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
WBG, RKW = ["white", "blue", "green"], ["red", "black", "white"]


def _region(page: str, name: str) -> str:
    """The markup of one region of a game page."""
    start = page.index(f'id="region-{name}"')
    return page[start : page.index("</section>", start)]


def test_the_game_page_is_never_cached(alice_client: Client, two_player_game: Game) -> None:
    response = alice_client.get(f"/games/{two_player_game.pk}/")

    assert "no-store" in response["Cache-Control"]


def test_region_answers_carry_their_version_and_every_digest(
    alice_client: Client, two_player_game: Game
) -> None:
    response = alice_client.get(f"/games/{two_player_game.pk}/regions/", HTTP_HX_REQUEST="true")

    assert response["X-Game-Version"] == str(two_player_game.version)
    names = {pair.split("=")[0] for pair in response["X-Region-Digests"].split(",")}
    assert names == {"status", "nobles", "board", "supply", "players", "decision", "log"}
    assert f'data-version="{two_player_game.version}"' in response.text


def test_the_tab_title_says_whose_turn_it_is(
    alice_client: Client, bob_client: Client, two_player_game: Game
) -> None:
    assert (
        f"<title>● Your turn · Game {two_player_game.pk}</title>"
        in alice_client.get(f"/games/{two_player_game.pk}/").text
    )
    assert (
        f"<title>Game {two_player_game.pk} · Splendor Online</title>"
        in bob_client.get(f"/games/{two_player_game.pk}/").text
    )


def test_every_page_has_a_policy_without_unsafe_inline(client: Client) -> None:
    policy = client.get("/")["Content-Security-Policy"]

    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


def test_no_template_has_inline_script_style_or_handlers() -> None:
    offending = []
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        for pattern in (
            r"<script(?![^>]*\bsrc=)[^>]*>",
            r"<style",
            r"\sstyle=\"",
            r"\son[a-z]+=\"",
        ):
            if re.search(pattern, text):
                offending.append(f"{template.relative_to(TEMPLATES)}: {pattern}")

    assert offending == []


def test_the_api_docs_load_their_script_from_a_file(client: Client) -> None:
    page = client.get("/api/docs/").text

    assert "<style" not in page
    assert '<script src="/api/docs/?script=">' in page


def test_two_bots_of_one_level_get_distinct_names(alice: User, alice_client: Client) -> None:
    game = create_game(UserSeat(alice), BotSeat("greedy"), BotSeat("greedy"), creator=alice)

    page = alice_client.get(f"/games/{game.pk}/").text

    assert "Greedy bot 1" in page
    assert "Greedy bot 2" in page


def test_the_log_names_bots_of_one_level_as_their_panels_do(
    alice: User, alice_client: Client
) -> None:
    with bots_paused():
        game = create_game(UserSeat(alice), BotSeat("random"), BotSeat("random"), creator=alice)
    game = play_line(
        game,
        [{"type": "take_gems", "gems": gems} for gems in (WBG, RKW, WBG)],  # alice, bot 1, bot 2
    )

    log = _region(alice_client.get(f"/games/{game.pk}/").text, "log")

    assert "Random bot 1 took white, red and black." in log
    assert "Random bot 2 took white, blue and green." in log
    assert "Random bot took" not in log
    assert "Random bot 2 took seat 3." in log


def test_a_new_display_name_shows_in_games_already_under_way(
    alice: User, alice_client: Client, bob_client: Client, two_player_game: Game
) -> None:
    Profile.objects.update_or_create(user=alice, defaults={"display_name": "Alice the Bold"})

    assert "Alice the Bold" in bob_client.get(f"/games/{two_player_game.pk}/").text
    assert "Alice the Bold" in bob_client.get("/lobby/").text
    api_seats = bob_client.get(f"/api/v1/games/{two_player_game.pk}/").json()["seats"]
    assert api_seats[0]["display_name"] == "Alice the Bold"


def test_players_show_buying_power_and_cards_show_what_they_need(
    alice_client: Client, two_player_game: Game
) -> None:
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})
    page = alice_client.get(f"/games/{two_player_game.pk}/").text

    assert 'aria-label="Buying power: bonuses plus tokens"' in page
    assert 'title="white (diamond): 0 from cards + 1 token"' in page
    assert re.search(r'class="card-needs">needs( \d[WBGRK])+<', page)
    assert re.search(r'<small class="muted">\d+\+\d+</small>', page)  # cards + nobles


def test_the_opponent_who_just_moved_is_highlighted(
    bob_client: Client, two_player_game: Game
) -> None:
    act(two_player_game, {"type": "take_gems", "gems": ["white", "blue", "green"]})

    page = bob_client.get(f"/games/{two_player_game.pk}/").text

    assert re.search(r'class="player[^"]*is-last-mover[^"]*" data-seat="0"', page)
    assert not re.search(r'class="player[^"]*is-last-mover[^"]*" data-seat="1"', page)


def test_a_rematch_seats_the_same_players_and_bots(
    alice: User, bob: User, alice_client: Client
) -> None:
    game = create_game(UserSeat(alice), UserSeat(bob), BotSeat("random"), creator=alice)
    play.game_resign(game_id=game.pk, user=bob)
    assert "Rematch" in alice_client.get(f"/games/{game.pk}/").text

    response = alice_client.post(f"/games/{game.pk}/rematch/")

    assert re.search(
        r"\d+ from cards \+ \d+ from nobles", alice_client.get(f"/games/{game.pk}/").text
    )
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 303
    assert response["Location"] == f"/games/{rematch.pk}/"
    seats = list(Seat.objects.filter(game=rematch).order_by("index"))
    assert [(seat.user_id, seat.bot_level) for seat in seats] == [
        (alice.pk, ""),
        (bob.pk, ""),
        (None, "random"),
    ]
    assert rematch.status == Status.ACTIVE


def test_only_a_player_of_a_finished_game_may_ask_for_a_rematch(
    alice: User, carol_client: Client, alice_client: Client, two_player_game: Game
) -> None:
    assert alice_client.post(f"/games/{two_player_game.pk}/rematch/").status_code == 303  # refused
    play.game_resign(game_id=two_player_game.pk, user=alice)

    response = carol_client.post(f"/games/{two_player_game.pk}/rematch/")

    assert response.status_code == 303
    assert Game.objects.count() == 1


def test_a_private_game_s_rematch_is_refused_as_missing_to_strangers(
    alice: User, bob: User, carol_client: Client
) -> None:
    game = create_game(UserSeat(alice), UserSeat(bob), creator=alice, is_public=False)
    play.game_resign(game_id=game.pk, user=bob)

    assert carol_client.post(f"/games/{game.pk}/rematch/").status_code == 404
    assert Game.objects.count() == 1


def test_home_lists_games_waiting_for_me_first_with_how_long(
    alice: User, bob: User, alice_client: Client
) -> None:
    waiting_for_bob = create_game(UserSeat(bob), UserSeat(alice), creator=alice)
    mine = create_game(UserSeat(alice), UserSeat(bob), creator=alice)
    finished = create_game(UserSeat(alice), OpenSeat(), creator=alice)
    lobby.game_abort(game_id=finished.pk, by_user=alice)

    page = alice_client.get("/").text

    assert page.index(f"#{mine.pk}<") < page.index(f"#{waiting_for_bob.pk}<")
    assert f"#{finished.pk}<" not in page
    assert re.search(r"waiting \d+\xa0minutes", page)
