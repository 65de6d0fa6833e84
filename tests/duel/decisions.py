"""Splendor Duel games started one move before a decision of their own (or at the turn's start
with a privilege, the bag, or tokens to put back), for the tests of deciding on the table.

Alice (seat 0) plays Bob; ``duel_at`` starts the game at a position of
``tests.engine.duel.positions`` and plays Alice's moves that lead to the decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from games import engine
from games.commands import lobby, play
from games.commands.lobby import UserSeat
from games.engine.duel.state import DuelState
from games.models import Game
from games.reads import loading
from tests.engine.duel.positions import hand, position

Pick = Callable[[dict[str, Any]], bool]


def duel_at(alice: User, bob: User, state: DuelState, *leading: Pick) -> Game:
    """A Duel from ``state``, Alice to play, taken on by her moves that ``leading`` pick."""
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=7,
                             start_position=engine.view(state, None))  # fmt: skip
    assert game.acting_seat == 0
    for wanted in leading:
        now = loading.game_state(game)
        assert now is not None
        legal = map(engine.action_to_json, engine.legal_actions(now))
        play.game_take_action(game_id=game.pk, action=next(filter(wanted, legal)),
                              expected_version=game.version, user=alice)  # fmt: skip
        game.refresh_from_db()
    return game


def buys(card: int) -> Pick:
    return lambda action: action["type"] == "buy_card" and action["card"] == card


AFTER_A_PURCHASE: dict[str, tuple[DuelState, Pick]] = {
    # White and blue cards in hand; the 5-Gem card (25) costs 4 white and a pearl.
    "choose_joker_colour": (
        position(hands=[hand({"white": 3, "pearl": 1}, cards=[1, 5]), hand()], pyramid={1: [25]}),
        buys(25),
    ),
    # Card 0, white with the "Gem" ability, costs 2 red and 2 black; the board holds 4 white.
    "take_matching_token": (
        position(hands=[hand({"red": 2, "black": 2}), hand()], pyramid={1: [0]}),
        buys(0),
    ),
    # Card 30, white with the "Take" ability, costs 4 blue and 3 red; Bob holds green and pearl.
    "steal_token": (
        position(
            hands=[hand({"blue": 4, "red": 3}), hand({"green": 2, "pearl": 1})], pyramid={2: [30]}
        ),
        buys(30),
    ),
    # Two cards of a crown each in hand; card 13 (a crown, 3 red) brings the third.
    "choose_royal": (
        position(hands=[hand({"red": 3}, cards=[3, 8]), hand()], pyramid={1: [13]}),
        buys(13),
    ),
}
"""Each decision that follows a purchase: the position before it, and the purchase."""

WITH_A_PRIVILEGE = position(hands=[hand(privileges=1), hand()])
"""A full board (every token but the three gold may be taken), Alice holding a privilege."""
THREE_RESERVED = position(hands=[hand(reserved=[40, 50, 60]), hand()])
"""A full board, Alice holding three reserved cards: she may not take a gold."""
WITH_A_BAG = position(hands=[hand(), hand()], bag={"red": 2, "pearl": 1})
"""Three tokens in the bag, the rest on the board: Alice may replenish it."""
NINE_TOKENS = position(
    hands=[hand({"white": 2, "blue": 2, "green": 2, "red": 2, "black": 1}), hand({"pearl": 1})]
)
"""Alice holds nine tokens; the board's top row starts with white, white and blue."""


def takes_the_top_row(action: dict[str, Any]) -> bool:
    """The line of the top row's first three tokens: twelve in hand from ``NINE_TOKENS``, two to
    put back."""
    return action["type"] == "take_tokens" and action["spaces"] == [[0, 0], [0, 1], [0, 2]]


def takes_a_gold(action: dict[str, Any]) -> bool:
    """A gold of the board, taken to reserve a card."""
    return action["type"] == "take_gold"
