"""The end of a Duel on its page: the winner, the way it was won, and the points split into
those from cards and those from royal cards, for each way a Duel ends.

Each game starts from a hand-built position (``tests/engine/duel/positions.py``) one purchase
from a win, and that purchase is played through the services, as a player's click would."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import engine
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.models import Game
from games.reads import loading
from tests.engine.duel.positions import hand, position

pytestmark = pytest.mark.django_db


def one_purchase_from_the_end(
    alice: User, bob: User, cards: list[int], royals: list[int], tokens: dict[str, int], buys: int
) -> Game:
    """Alice to play, holding ``cards``, ``royals`` and ``tokens``; she buys card ``buys``."""
    level = engine.card_json(buys, "duel")["level"]
    state = position(
        hands=[hand(tokens, cards=cards, royals=royals), hand()],
        pyramid={level: [buys]},
        royals=[royal for royal in (0, 1, 2, 3) if royal not in royals],
    )
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7,
                             start_position=engine.view(state, None))  # fmt: skip
    assert game.acting_seat == 0
    state_now = loading.game_state(game)
    assert state_now is not None
    buy = next(
        action
        for action in map(engine.action_to_json, engine.legal_actions(state_now))
        if action["type"] == "buy_card" and action["card"] == buys
    )
    play.game_take_action(game_id=game.pk, action=buy, expected_version=game.version,
                          user=alice)  # fmt: skip
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def banner(user: User, game: Game) -> tuple[str, str, dict[str, str]]:
    """The result panel's headline, its reason, and each player's split of points."""
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    panel = page[page.index('<section class="result panel"') :]
    panel = panel[: panel.index("</section>")]
    text = html.unescape(re.sub(r"\s+", " ", panel))
    headline = re.search(r'<h1 class="result-headline">(.*?)</h1>', text)
    why = re.search(r'<p class="result-why">(.*?)</p>', text)
    splits = dict(
        re.findall(r"<th scope=\"row\">(\w+).*?<small class=\"muted\">(.*?)</small>", text)
    )
    assert headline is not None
    return headline.group(1), why.group(1) if why else "", splits


def test_ten_crowns_win_with_points_from_cards_and_royals(alice: User, bob: User) -> None:
    # 8 crowns (cards 54, 56, 58, 3, 8) and the two royals they brought (2 + 3 points); the
    # red card 60 (3 points, 2 crowns) makes ten: 12 points from cards, 5 from royals.
    game = one_purchase_from_the_end(
        alice, bob, cards=[54, 56, 58, 3, 8], royals=[1, 3],
        tokens={"blue": 3, "green": 2, "black": 3, "pearl": 1}, buys=60,
    )  # fmt: skip

    headline, why, splits = banner(alice, game)

    assert headline == "alice wins!"
    assert why == "alice gathered 10 crowns."
    assert splits["alice"] == "12 from cards + 5 from royals"
    assert splits["bob"] == "0 from cards + 0 from royals"


def test_twenty_points_win(alice: User, bob: User) -> None:
    # 15 points on cards (55, 57, 59 and the no-bonus 29; 3, 8 and 13 for three crowns) and
    # royal 3 (3 points); the black card 63 (4 points) brings 22.
    game = one_purchase_from_the_end(
        alice, bob, cards=[55, 57, 59, 29, 3, 8, 13], royals=[3],
        tokens={"red": 2, "black": 4, "gold": 2}, buys=63,
    )  # fmt: skip

    headline, why, splits = banner(bob, game)

    assert headline == "alice wins!"
    assert why == "alice reached 20 points."
    assert splits["alice"] == "19 from cards + 3 from royals"


def test_ten_points_in_one_colour_win(alice: User, bob: User) -> None:
    # White cards worth 9 (55, 54, 33: three crowns, so royal 3 too); the white card 4 (1 point)
    # makes ten points on white cards.
    game = one_purchase_from_the_end(
        alice, bob, cards=[55, 54, 33], royals=[3], tokens={"green": 2, "red": 3}, buys=4,
    )  # fmt: skip

    headline, why, splits = banner(alice, game)

    assert headline == "alice wins!"
    assert why == "alice has 10 points on cards of one colour (10 on white)."
    assert splits["alice"] == "10 from cards + 3 from royals"


def test_a_resignation_names_who_resigned_and_who_won(alice: User, bob: User) -> None:
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7)  # fmt: skip
    play.game_resign(game_id=game.pk, user=bob)
    game.refresh_from_db()

    headline, why, splits = banner(alice, game)

    assert headline == "alice wins!"
    assert why == "The game ended when a player resigned. bob resigned, so alice wins."
    assert splits == {
        "alice": "0 from cards + 0 from royals",
        "bob": "0 from cards + 0 from royals",
    }
