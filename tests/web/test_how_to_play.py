"""Each game's "How to play" page: a newcomer reads the rules in the site's words, with pictures
of the real table (cards, bank or token board, panels, nobles or royals) in example positions
the engine built. The pages are reached from the new-game form, the table and the footer; a
game the site does not offer has none."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.commands import lobby
from games.commands.lobby import UserSeat
from games.variants import GAMES
from games.variants.duel.how_to_play import examples as duel_examples
from games.variants.splendor.how_to_play import examples as splendor_examples

pytestmark = pytest.mark.django_db

SECTIONS = {
    "splendor": [
        "The goal",
        "Your turn: one of four actions",
        "Buying a card: bonuses and gold",
        "Reserving a card",
        "Nobles",
        "Ten tokens at most",
        "The end of the game",
    ],
    "duel": [
        "The goal: three ways to win",
        "The table",
        "Your turn",
        "Privileges",
        "Buying a card: bonuses and gold",
        "Card abilities",
        "Crowns and royals",
        "Ten tokens at most",
        "The end of the game",
    ],
}


def figures(page: str) -> list[str]:
    """The markup of every picture of a page, in order."""
    return re.findall(r'<figure class="how-figure">(.*?)</figure>', page, re.DOTALL)


def figure_under(page: str, section: str) -> str:
    """The (first) picture of the section whose id is ``section``."""
    start = page.index(f'<section class="how-section" id="{section}"')
    return figures(page[start : page.index("</section>\n", page.index("</figure>", start))])[0]


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_each_game_has_its_page_with_its_sections_and_pictures(
    client: Client, variant: str
) -> None:
    response = client.get(f"/how-to-play/{variant}/")

    assert response.status_code == 200
    page = response.text
    assert f"<h1>How to play {GAMES[variant].title}</h1>" in page
    assert re.findall(r"<h2 id=\"[-a-z]+-title\">(.*?)</h2>", page) == SECTIONS[variant]
    pictures = figures(page)
    assert len(pictures) == 5
    for picture in pictures:
        # A picture is described in words as a whole, and offers nothing to click.
        assert re.search(r'role="img" aria-label="[^"]{40,}"', picture)
        assert "<figcaption>" in picture
        assert "<form" not in picture
        assert not re.search(r"<button(?![^>]*\bdisabled\b)", picture)
        assert "style=" not in picture
    # Drawn by the table's own templates: real cards with their ids and costs, real panels.
    assert page.count('<article class="card') >= 15
    assert page.count('aria-label="Cost"') >= 15
    # Several pictures of one kind on a page: none claims a region's unique id.
    assert 'id="region-' not in page


def test_the_base_game_s_pictures_show_the_table_s_parts(client: Client) -> None:
    page = client.get("/how-to-play/splendor/").text

    table = figure_under(page, "turn")
    assert 'aria-label="Nobles"' in table
    assert 'aria-label="Token supply"' in table
    assert table.count('class="player') >= 2
    purchase = figure_under(page, "buying")
    assert re.search(r'<article class="card card--red is-affordable" data-card="59"', purchase)
    assert "5/10" in purchase
    assert "0/10" in purchase  # Ada's tokens before and after
    nobles = figure_under(page, "nobles")
    assert nobles.count('data-noble="7"') == 2  # on the table, then in Ada's panel
    assert "12/10" in figure_under(page, "token-limit")
    end = figure_under(page, "end")
    assert end.count("<b>15</b> pts") == 2


def test_the_duel_s_pictures_show_the_table_s_parts(client: Client) -> None:
    page = client.get("/how-to-play/duel/").text

    table = figure_under(page, "table")
    assert 'class="duel-grid"' in table
    assert 'class="duel-royal"' in table
    assert table.count('<article class="duel-player') == 2
    purchase = figure_under(page, "buying")
    assert 'data-card="9"' in purchase
    assert "gold covers 1K" in purchase
    royals = figure_under(page, "royals")
    assert royals.count('class="duel-royal"') == 5  # four on the table, then Ada's
    limit = figure_under(page, "token-limit")
    assert "12/10" in limit
    assert "10/10" in limit
    assert "duel-goal--colour_points is-met" in figure_under(page, "end")


def test_the_base_game_s_examples_are_the_positions_their_captions_describe() -> None:
    examples = splendor_examples()

    purchase = examples["purchase"]
    assert purchase["card"]["affordable"]
    [before], [after] = purchase["before"]["players"], purchase["after"]["players"]
    assert (before["bonuses"][1]["count"], before["bonuses"][4]["count"]) == (2, 1)  # blue, black
    assert (after["points"], after["token_count"]) == (1, 0)
    [visited] = examples["noble"]["after"]["players"]
    assert [noble["id"] for noble in visited["nobles"]] == [7]
    assert 7 not in [noble["id"] for noble in examples["noble"]["after_nobles"]["nobles"]]
    limit = examples["token_limit"]
    assert limit["over"]["players"][0]["token_count"] == 12
    assert limit["after"]["players"][0]["token_count"] == 10
    end = examples["end"]
    assert end["points"] == (15, 15)
    assert end["cards_bought"] == (11, 8)
    assert end["winners"] == (1,)  # equal points: fewer cards wins


def test_the_duel_s_examples_are_the_positions_their_captions_describe() -> None:
    examples = duel_examples()

    assert examples["purchase"]["card"]["gold_covers"] == "gold covers 1K"
    [after] = examples["purchase"]["after"]["players"]
    assert after["points"] == 1
    [crowned] = examples["royal"]["after"]["players"]
    assert crowned["crowns"] == 3
    assert [royal["number"] for royal in crowned["royals"]] == [4]
    limit = examples["token_limit"]
    assert limit["over"]["players"][0]["token_count"] == 12
    assert limit["after"]["players"][0]["token_count"] == 10
    assert examples["end"]["ended_by"] == "ten_points_in_a_colour"
    assert examples["end"]["winners"] == (0,)


def test_a_game_the_site_does_not_offer_has_no_page(client: Client) -> None:
    assert client.get("/how-to-play/hanabi/").status_code == 404


def test_the_new_game_form_links_each_game_to_its_page(alice_client: Client) -> None:
    page = alice_client.get("/games/new/").text

    for game in GAMES.values():
        assert f'href="/how-to-play/{game.variant}/">How to play {game.title}</a>' in page


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_the_table_links_to_its_game_s_page(alice: User, bob: User, variant: str) -> None:
    game = lobby.game_create(
        variant=variant, seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=5
    )
    client = Client()
    client.force_login(alice)

    page = client.get(f"/games/{game.pk}/").text

    status = page[page.index('id="region-status"') :]
    assert f'<a class="how-to-play-link" href="/how-to-play/{variant}/">How to play</a>' in status


def test_the_footer_links_to_both_pages(client: Client) -> None:
    page = client.get("/").text

    footer = page[page.index('<footer class="site-footer">') :]
    for game in GAMES.values():
        assert f'<a href="/how-to-play/{game.variant}/">{game.title}</a>' in footer
