"""The end of a game of the base game wherever a player meets it: the winner, how they won
(most points, the fewest-cards tie-break, a shared win, a resignation) and each player's points
from cards and from nobles, on the game page's result panel, in the lists of games, in My games
and in the API's result; and a player who ran out of time, told beside the way it was won.

Each game starts from a hand-built position (``tests/engine/positions.py``) at the last turn of
a round in which someone has reached 15 points, and that turn is played through the services,
as a player's click would (or, for the time-out, by the Greedy bot the sweeper hands it to).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from games import engine
from games.commands import deadlines, lobby, play
from games.commands.deadline_tasks import greedy_chooser
from games.commands.lobby import UserSeat
from games.engine.splendor.state import GameState
from games.models import Game
from games.reads import loading
from tests.engine.positions import Hand, card_where, cards_where, hand, noble_where, position
from tests.game_results import api_result, banner, lists_ending, my_games_row

pytestmark = pytest.mark.django_db

HOUR = 3600
FIVE_POINTS = cards_where(level=3, points=5)
FOUR_POINTS = cards_where(level=3, points=4)
THREE_POINTS_WHITE = card_where(level=2, colour="white", points=3)
ONE_POINT_LEVEL_ONE = cards_where(level=1, points=1)


def game_from(alice: User, bob: User, state: GameState, *, move_seconds: int | None = None) -> Game:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7, move_seconds=move_seconds,
                             start_position=engine.view(state, None))  # fmt: skip
    assert game.acting_seat == 1
    return game


def bob_ends_the_round(alice: User, bob: User, zero: Hand, one: Hand) -> Game:
    """Alice holds ``zero`` and Bob ``one``; Bob plays the round's last turn: three gems."""
    game = game_from(alice, bob, position(hands=[zero, one], current=1))
    state = loading.game_state(game)
    assert state is not None
    take = next(
        action
        for action in map(engine.action_to_json, engine.legal_actions(state))
        if action["type"] == "take_gems" and len(set(action["gems"])) == 3
    )
    play.game_take_action(game_id=game.pk, action=take, expected_version=game.version,
                          user=bob)  # fmt: skip
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def test_most_points_wins_with_points_from_cards_and_nobles(alice: User, bob: User) -> None:
    # Alice: 5 + 5 + 3 from cards and 3 from a noble (four white and four blue bonuses from
    # cards without points) = 16; Bob: 5 + 5 + 4 + 1 = 15.
    white = cards_where(level=1, colour="white", points=0)[:4]
    blue = cards_where(level=1, colour="blue", points=0)[:4]
    game = bob_ends_the_round(
        alice,
        bob,
        hand(
            cards=[*white, *blue, FIVE_POINTS[0], FIVE_POINTS[1], THREE_POINTS_WHITE],
            nobles=[noble_where(white=4, blue=4)],
        ),
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[2]]),
    )

    headline, why, splits = banner(bob, game)
    assert headline == "alice wins!"
    assert why == (
        "A player reached 15 points and the round was played out. Most points wins: alice has 16."
    )
    assert splits == {
        "alice": "13 from cards + 3 from nobles",
        "bob": "15 from cards + 0 from nobles",
    }

    assert my_games_row(alice, game) == ("won", "Won by alice — 16 points")
    assert my_games_row(bob, game) == ("lost", "Won by alice — 16 points")
    assert lists_ending(bob, game) == "Won by alice — 16 points"
    result = api_result(bob, game)
    assert (result["winners"], result["won_by"]) == ([0], "points")
    assert result["scores"] == [
        {"seat": 0, "cards": 13, "nobles": 3, "total": 16},
        {"seat": 1, "cards": 15, "nobles": 0, "total": 15},
    ]
    assert result["timed_out"] == []


def test_a_tie_on_points_goes_to_the_fewest_cards(alice: User, bob: User) -> None:
    # 5 + 5 + 4 + 1 = 15 with four cards against 5 + 5 + 5 = 15 with three.
    game = bob_ends_the_round(
        alice,
        bob,
        hand(cards=[FIVE_POINTS[0], FIVE_POINTS[1], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[0]]),
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FIVE_POINTS[4]]),
    )

    headline, why, splits = banner(alice, game)
    assert headline == "bob wins!"
    assert why.endswith(
        "Tied on 15 points; the rulebook's tie-break is the fewest cards bought: "
        "bob bought 3 (alice 4)."
    )
    assert splits["bob"] == "15 from cards + 0 from nobles"

    assert my_games_row(alice, game) == ("lost", "Won by bob — 15 points, fewest cards")
    assert lists_ending(alice, game) == "Won by bob — 15 points, fewest cards"
    result = api_result(alice, game)
    assert (result["winners"], result["won_by"]) == ([1], "fewest_cards")
    assert [score["total"] for score in result["scores"]] == [15, 15]


def test_a_tie_on_points_and_cards_is_shared(alice: User, bob: User) -> None:
    # 5 + 5 + 4 + 1 = 15 with four cards each.
    game = bob_ends_the_round(
        alice,
        bob,
        hand(cards=[FIVE_POINTS[0], FIVE_POINTS[1], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[0]]),
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FOUR_POINTS[1], ONE_POINT_LEVEL_ONE[1]]),
    )

    headline, _why, _splits = banner(alice, game)
    assert headline == "alice and bob share the win!"

    ending = "Shared by alice and bob — tied on 15 points and 4 cards"
    assert my_games_row(bob, game) == ("shared", ending)
    assert lists_ending(bob, game) == ending
    result = api_result(bob, game)
    assert (result["winners"], result["won_by"]) == ([0, 1], "shared")


def test_a_resignation_names_who_resigned_and_who_won(alice: User, bob: User) -> None:
    game = lobby.game_create(variant="splendor", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7)  # fmt: skip
    play.game_resign(game_id=game.pk, user=alice)
    game.refresh_from_db()

    headline, why, splits = banner(bob, game)
    assert headline == "bob wins!"
    assert why == "The game ended when a player resigned. alice resigned, so bob wins."
    assert splits == {
        "bob": "0 from cards + 0 from nobles",
        "alice": "0 from cards + 0 from nobles",
    }

    assert my_games_row(alice, game) == ("resigned", "Won by bob — alice resigned")
    assert lists_ending(bob, game) == "Won by bob — alice resigned"
    result = api_result(alice, game)
    assert (result["winners"], result["won_by"], result["resigned"]) == ([1], "resignation", [0])


def test_a_time_out_is_told_beside_the_way_the_game_was_won(alice: User, bob: User) -> None:
    # Nobody can act: no gem in the supply, three reserves each, nothing affordable. Alice
    # (a 1-point card) has passed this round; Bob runs out of time and the Greedy bot passes
    # for him, which ends the game: every player passed in one round.
    state = position(
        supply={"gold": 5},
        board={1: [30, 12, 36, 21], 2: [41, 49, 62, 60], 3: [70, 74, 78, 82]},
        hands=[
            hand({"white": 4, "blue": 4, "green": 2}, cards=[7], reserved=[45, 51, 73]),
            hand({"green": 2, "red": 4, "black": 4}, reserved=[57, 63, 69]),
        ],
        current=1,
        passes_this_round=1,
    )
    game = game_from(alice, bob, state, move_seconds=HOUR)
    assert game.turn_deadline is not None
    assert deadlines.game_time_out_turn(
        game_id=game.pk,
        expected_version=game.version,
        now=game.turn_deadline + timedelta(seconds=1),
        choose=greedy_chooser(game.pk, game.version),
    )
    game.refresh_from_db()
    assert game.status == "finished"

    headline, why, splits = banner(alice, game)
    assert headline == "alice wins!"
    assert why == (
        "Every player passed in one round, so the game ended. Most points wins: alice has 1. "
        "bob had run out of time: the Greedy bot played for them."
    )
    assert splits["alice"] == "1 from cards + 0 from nobles"

    ending = "Won by alice — 1 point; bob timed out"
    assert my_games_row(bob, game) == ("lost", ending)
    assert lists_ending(alice, game) == ending
    result = api_result(bob, game)
    assert (result["winners"], result["won_by"], result["timed_out"]) == ([0], "points", [1])
