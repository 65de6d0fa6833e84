"""Splendor Duel's "How to play" page: its template and the example positions it draws.

As for the base game (``games.variants.splendor.how_to_play``): each example is a position
built from the engine's own state, tokens laid on the board by hand and the rest in the bag,
played on by the engine's own moves and drawn by the Duel table's presenter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games import engine
from games.variants.base import HowToPlay
from games.variants.duel.cards import card_view
from games.variants.duel.table import table_for_viewer
from games.variants.illustrations import only_seat, play, regions

SEED = 29
"""The deal the examples start from: which cards fill the rest of the pyramid."""
TOKENS = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}
"""Every token of the game: on the board, in the bag or in a hand."""
BOARD_LETTERS = {
    "W": "white", "B": "blue", "G": "green", "R": "red", "K": "black", "P": "pearl", "$": "gold",
}  # fmt: skip
"""How the examples below spell a board: a letter per space, "." for an empty one."""


def _position(
    players: Sequence[Mapping[str, Any]],
    *,
    board: Sequence[str],
    pyramid: Sequence[int] = (),
    turn: int = 0,
) -> engine.State:
    """Ada (seat 0) to play at ``turn``, each player holding what ``players`` lists, the board
    as ``board`` spells it row by row, the tokens nobody holds nor sees in the bag, and the
    cards of ``pyramid`` face up; the other cards stay in the deal of ``SEED``. Privileges
    nobody holds are on the table. The engine reads it as any stored state."""
    dealt = engine.state_to_json(engine.initial_state(engine.new_game("duel", 2, SEED)))
    held = {card for player in players for key in ("cards", "reserved") for card in player[key]}
    rows, decks = [], []
    for level in (1, 2, 3):
        pool = [*dealt["pyramid"][level - 1], *dealt["decks"][level - 1]]
        shown = [card for card in pyramid if engine.card_json(card, "duel")["level"] == level]
        rest = [card for card in pool if card not in held and card not in shown]
        width = len(dealt["pyramid"][level - 1])
        row = (shown + rest)[:width]
        rows.append(row)
        decks.append([card for card in rest if card not in row])
    spaces = [[BOARD_LETTERS.get(letter) for letter in line.replace(" ", "")] for line in board]
    bag = dict(TOKENS)
    for colour in (colour for line in spaces for colour in line if colour):
        bag[colour] -= 1
    for player in players:
        for colour, count in player["tokens"].items():
            bag[colour] -= count
    too_many = [colour for colour, count in bag.items() if count < 0]
    if too_many:
        raise ValueError(f"more {' and '.join(too_many)} tokens than the game has: {board}")
    return engine.state_from_json(
        {
            **dealt,
            "players": [
                {
                    "tokens": dict(player["tokens"]),
                    "privileges": player["privileges"],
                    "cards": list(player["cards"]),
                    "card_colours": [
                        engine.card_json(card, "duel")["colour"] for card in player["cards"]
                    ],
                    "reserved": list(player["reserved"]),
                    "blind": [],
                    "royals": list(player["royals"]),
                }
                for player in players
            ],
            "board": spaces,
            "bag": {colour: count for colour, count in bag.items() if count},
            "decks": decks,
            "pyramid": rows,
            "royals": [
                royal for royal in range(4) if all(royal not in p["royals"] for p in players)
            ],
            "current": 0,
            "turn": turn,
        }
    )


def _player(
    cards: Sequence[int] = (),
    tokens: Mapping[str, int] | None = None,
    *,
    privileges: int = 0,
    reserved: Sequence[int] = (),
    royals: Sequence[int] = (),
) -> dict[str, Any]:
    return {
        "cards": cards,
        "tokens": tokens or {},
        "privileges": privileges,
        "reserved": reserved,
        "royals": royals,
    }


def _card(drawn: Mapping[str, Any], card: int) -> dict[str, Any]:
    """Card ``card`` as the pyramid region draws it."""
    return next(
        item for row in drawn["pyramid"]["rows"] for item in row["cards"] if item["id"] == card
    )


def _choices() -> dict[str, Any]:
    """Ada's turn, early on: a privilege to spend, a bag to refill the board from, lines of
    tokens to take, gold to take with a reserve, and a card she can afford."""
    state = _position(
        [
            _player(
                cards=(5, 16), tokens={"white": 1, "green": 1, "black": 1, "pearl": 1}, privileges=1
            ),
            _player(cards=(21, 3), tokens={"red": 2, "blue": 1}, privileges=1),
        ],
        board=("P W G B .", "R K W G .", "$ K R B W", "G . $ K .", ". . . . ."),
        pyramid=(10,),
        turn=8,
    )
    return {"regions": regions(table_for_viewer, state)}


def _purchase() -> dict[str, Any]:
    """Ada buys a blue card costing 2 red and 3 black: her red card pays one red, her tokens
    pay a red and two black, and a gold stands in for the third black."""
    before = _position(
        [
            _player(
                cards=(5, 16), tokens={"red": 1, "black": 2, "gold": 1, "white": 1}, reserved=(57,)
            ),
            _player(cards=(21,), tokens={"green": 2, "blue": 1}, privileges=1),
        ],
        board=("W . G . .", ". . . K .", "G W . R .", ". $ B . .", ". . R . $"),
        pyramid=(9,),
        turn=10,
    )
    payment = {"red": 1, "black": 2, "gold": 1}
    after = play(before, {"type": "buy_card", "card": 9, "payment": payment})
    drawn = regions(table_for_viewer, before)
    return {
        "card": _card(drawn, 9),
        "before": only_seat(drawn, 0),
        "after": only_seat(regions(table_for_viewer, after), 0),
        "payment": payment,
    }


def _royal() -> dict[str, Any]:
    """Ada has two crowns; the green card she buys brings the third, and she takes a royal."""
    before = _position(
        [
            _player(cards=(3, 8), tokens={"red": 3, "blue": 1}),
            _player(cards=(21, 16), tokens={"white": 1}, privileges=1),
        ],
        board=("W B G . .", ". . P K B", "G W . R K", ". $ B G .", "W . . . $"),
        pyramid=(13,),
        turn=12,
    )
    choosing = play(before, {"type": "buy_card", "card": 13})
    after = play(choosing, {"type": "choose_royal", "royal": 3})
    drawn = regions(table_for_viewer, before)
    return {
        "card": _card(drawn, 13),
        "royals": regions(table_for_viewer, choosing)["pyramid"]["royals"],
        "before": only_seat(drawn, 0),
        "after": only_seat(regions(table_for_viewer, after), 0),
    }


def _token_limit() -> dict[str, Any]:
    """Ada holds nine tokens and takes a line of three: twelve, so two go back in the bag."""
    before = _position(
        [
            _player(
                cards=(5,),
                tokens={"white": 2, "blue": 2, "green": 1, "red": 1, "black": 2, "pearl": 1},
            ),
            _player(cards=(21,), tokens={"red": 1}, privileges=1),
        ],
        board=("W G R . .", ". B . K .", "G . $ . R", ". $ . G .", ". . P . ."),
        turn=14,
    )
    over = play(before, {"type": "take_tokens", "spaces": [[0, 0], [0, 1], [0, 2]]})
    after = play(over, {"type": "discard_tokens", "tokens": {"white": 1, "black": 1}})
    return {
        "board": regions(table_for_viewer, before)["board"],
        "over": only_seat(regions(table_for_viewer, over), 0),
        "after": only_seat(regions(table_for_viewer, after), 0),
    }


def _end() -> dict[str, Any]:
    """Ada's red cards hold 7 points; a red card of 3 more makes 10 in one colour: she wins at
    once, with far fewer than 20 points."""
    before = _position(
        [
            _player(
                cards=(5, 6, 10, 21, 19, 61, 44),
                tokens={"blue": 3, "green": 2, "black": 2, "pearl": 1},
            ),
            _player(cards=(3, 8, 23, 14), tokens={"white": 2, "red": 1}, privileges=1, royals=(1,)),
        ],
        board=("W . G . .", ". . . K .", "G W . R .", ". $ B . .", ". . R . $"),
        pyramid=(60,),
        turn=24,
    )
    over = play(before, {"type": "buy_card", "card": 60})
    result = engine.outcome(over)
    assert result is not None, "the example's last move ends the game"
    return {
        "card": card_view(engine.card_json(60, "duel")),
        "over": regions(table_for_viewer, over, seat=None)["players"],
        "ended_by": result.ended_by,
        "winners": result.winners,
    }


@cache
def examples() -> dict[str, Any]:
    """Every picture of the page, by name: built once per process (they never change)."""
    return {
        "choices": _choices(),
        "purchase": _purchase(),
        "royal": _royal(),
        "token_limit": _token_limit(),
        "end": _end(),
    }


HOW_TO_PLAY = HowToPlay(template="games/how_to_play/duel.html", examples=examples)
