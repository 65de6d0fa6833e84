"""The end of a Duel wherever a player meets it: the winner, the way it was won, and the points
split into those from cards and those from royal cards, for each way a Duel ends, on the game
page's result panel, in the lists of games, in My games and in the API's result.

Each game starts from a hand-built position (``tests/engine/duel/positions.py``) one purchase
from a win, and that purchase is played through the services, as a player's click would; a
resignation and a time-out go through the services too (the sweeper's time-out, with the Greedy
bot it hands the turn to)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import engine
from games.commands import deadlines, lobby, play
from games.commands.deadline_tasks import greedy_chooser
from games.commands.lobby import UserSeat
from games.engine.duel.state import DuelState
from games.models import Game
from games.reads import loading
from tests.engine.duel.positions import hand, position
from tests.game_results import api_result, banner, lists_ending, my_games_row

HOUR = 3600

pytestmark = pytest.mark.django_db


def one_purchase_from_the_end(
    alice: User, bob: User, cards: list[int], royals: list[int], tokens: dict[str, int], buys: int
) -> Game:
    """Alice to play, holding ``cards``, ``royals`` and ``tokens``; she buys card ``buys``."""
    state = alice_one_purchase_from_the_end(cards, royals, tokens, buys)
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7,
                             start_position=engine.view(state, None))  # fmt: skip
    assert game.acting_seat == 0
    return alice_buys(alice, game, buys)


def alice_one_purchase_from_the_end(
    cards: list[int],
    royals: list[int],
    tokens: dict[str, int],
    buys: int,
    *,
    bob_reserved: Sequence[int] = (),
    current: int = 0,
) -> DuelState:
    """The position where Alice (seat 0) holds ``cards``, ``royals`` and ``tokens`` and card
    ``buys`` lies in the pyramid; Bob holds nothing but ``bob_reserved``; ``current`` plays."""
    level = engine.card_json(buys, "duel")["level"]
    return position(
        hands=[hand(tokens, cards=cards, royals=royals), hand(reserved=bob_reserved)],
        pyramid={level: [buys]},
        royals=[royal for royal in (0, 1, 2, 3) if royal not in royals],
        current=current,
    )


def alice_buys(alice: User, game: Game, buys: int) -> Game:
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


CROWNS_WIN: dict[str, Any] = {
    "cards": [54, 56, 58, 3, 8],
    "royals": [1, 3],
    "tokens": {"blue": 3, "green": 2, "black": 3, "pearl": 1},
    "buys": 60,
}
"""8 crowns (cards 54, 56, 58, 3, 8) and the two royals they brought (2 + 3 points); the red
card 60 (3 points, 2 crowns) makes ten: 12 points from cards, 5 from royals."""


def test_ten_crowns_win_with_points_from_cards_and_royals(alice: User, bob: User) -> None:
    game = one_purchase_from_the_end(alice, bob, **CROWNS_WIN)

    headline, why, splits = banner(alice, game)
    assert headline == "alice wins!"
    assert why == "alice gathered 10 crowns."
    assert splits["alice"] == "12 from cards + 5 from royals"
    assert splits["bob"] == "0 from cards + 0 from royals"

    assert my_games_row(alice, game) == ("won", "Won by alice — 10 crowns")
    assert my_games_row(bob, game) == ("lost", "Won by alice — 10 crowns")
    assert lists_ending(bob, game) == "Won by alice — 10 crowns"
    result = api_result(bob, game)
    assert result["winners"] == [0]
    assert result["won_by"] == "crowns"
    assert result["scores"] == [
        {"seat": 0, "cards": 12, "royals": 5, "total": 17},
        {"seat": 1, "cards": 0, "royals": 0, "total": 0},
    ]
    assert result["timed_out"] == []


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

    assert my_games_row(bob, game) == ("lost", "Won by alice — 20 points")
    assert lists_ending(alice, game) == "Won by alice — 20 points"
    result = api_result(alice, game)
    assert (result["winners"], result["won_by"]) == ([0], "points")
    assert result["scores"][0] == {"seat": 0, "cards": 19, "royals": 3, "total": 22}


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

    assert my_games_row(alice, game) == ("won", "Won by alice — 10 points in white")
    assert lists_ending(bob, game) == "Won by alice — 10 points in white"
    result = api_result(bob, game)
    assert (result["winners"], result["won_by"], result["colour"]) == (
        [0],
        "colour_points",
        "white",
    )
    assert result["scores"][0] == {"seat": 0, "cards": 10, "royals": 3, "total": 13}


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

    assert my_games_row(bob, game) == ("resigned", "Won by alice — bob resigned")
    assert my_games_row(alice, game) == ("won", "Won by alice — bob resigned")
    assert lists_ending(alice, game) == "Won by alice — bob resigned"
    result = api_result(bob, game)
    assert (result["winners"], result["won_by"], result["resigned"]) == ([0], "resignation", [1])
    assert [score["total"] for score in result["scores"]] == [0, 0]


def test_a_time_out_is_told_beside_the_way_the_game_was_won(alice: User, bob: User) -> None:
    # Bob (to play first, three cards reserved so that he cannot take Alice's card) runs out
    # of time: the Greedy bot plays his turn. Alice then wins by ten crowns as above.
    state = alice_one_purchase_from_the_end(**CROWNS_WIN, bob_reserved=[20, 21, 22], current=1)
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7, move_seconds=HOUR,
                             start_position=engine.view(state, None))  # fmt: skip
    assert game.acting_seat == 1
    assert game.turn_deadline is not None
    timed_out = deadlines.game_time_out_turn(
        game_id=game.pk,
        expected_version=game.version,
        now=game.turn_deadline + timedelta(seconds=1),
        choose=greedy_chooser(game.pk, game.version),
    )
    assert timed_out
    game.refresh_from_db()
    game = alice_buys(alice, game, CROWNS_WIN["buys"])

    headline, why, splits = banner(alice, game)
    assert headline == "alice wins!"
    assert (
        why == "alice gathered 10 crowns. bob had run out of time: the Greedy bot played for them."
    )
    assert splits["alice"] == "12 from cards + 5 from royals"

    ending = "Won by alice — 10 crowns; bob timed out"
    assert my_games_row(bob, game) == ("lost", ending)
    assert lists_ending(alice, game) == ending
    result = api_result(alice, game)
    assert (result["winners"], result["won_by"], result["timed_out"]) == ([0], "crowns", [1])
