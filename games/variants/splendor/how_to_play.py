"""The base game's "How to play" page: its template and the example positions it draws.

Each example is a position built here from the engine's own state (cards and tokens placed by
hand on a dealt game), then played on by the engine's own moves, and drawn by the table's
presenter (``games.variants.illustrations``). The page's words name the cards and counts these
positions hold; ``tests/web/test_how_to_play.py`` holds the two together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games import engine
from games.variants.base import HowToPlay
from games.variants.illustrations import only_seat, play, regions
from games.variants.splendor.table import table_for_viewer

SEED = 29
"""The deal the examples start from: which cards fill the rest of the board."""
SUPPLY = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 5}
"""A game of two's bank before anyone takes a token."""


def _position(
    players: Sequence[Mapping[str, Any]],
    *,
    board: Sequence[int] = (),
    nobles: Sequence[int] = (7, 2, 5),
    turn: int = 0,
) -> engine.State:
    """A game of two at ``turn`` (seat ``turn % 2`` to play), each player holding what
    ``players`` lists (cards bought and reserved, tokens, nobles), the cards of ``board`` face
    up in their rows; the other cards stay in the deal of ``SEED``. The engine reads it as any
    stored state, so a position no game could reach is refused."""
    dealt = engine.state_to_json(engine.initial_state(engine.new_game("splendor", 2, SEED)))
    held = {card for player in players for key in ("cards", "reserved") for card in player[key]}
    rows = []
    decks = []
    for level in (1, 2, 3):
        pool = [*dealt["board"][level - 1], *dealt["decks"][level - 1]]
        shown = [card for card in board if engine.card_json(card, "splendor")["level"] == level]
        rest = [card for card in pool if card not in held and card not in shown]
        row = (shown + rest)[:4]
        rows.append(row)
        decks.append([card for card in rest if card not in row])
    supply = dict(SUPPLY)
    for player in players:
        for colour, count in player["tokens"].items():
            supply[colour] -= count
    visited = {noble for player in players for noble in player["nobles"]}
    return engine.state_from_json(
        {
            **dealt,
            "players": [
                {
                    "tokens": dict(player["tokens"]),
                    "cards": list(player["cards"]),
                    "reserved": list(player["reserved"]),
                    "blind": [],
                    "nobles": list(player["nobles"]),
                }
                for player in players
            ],
            "supply": supply,
            "decks": decks,
            "board": rows,
            "nobles": [noble for noble in nobles if noble not in visited],
            "current": turn % 2,
            "turn": turn,
        }
    )


def _player(
    cards: Sequence[int] = (),
    tokens: Mapping[str, int] | None = None,
    reserved: Sequence[int] = (),
    nobles: Sequence[int] = (),
) -> dict[str, Any]:
    return {"cards": cards, "tokens": tokens or {}, "reserved": reserved, "nobles": nobles}


def _card(drawn: Mapping[str, Any], card: int) -> dict[str, Any]:
    """Card ``card`` as the board region draws it."""
    return next(
        item
        for row in drawn["board"]["rows"]
        for item in row["cards"]
        if item and item["id"] == card
    )


def _choices() -> dict[str, Any]:
    """Ada's sixth turn: a card she can afford (a red one, ticked), tokens to take, cards to
    reserve, and Ben's panel with what he holds."""
    state = _position(
        [
            _player(cards=(16, 8), tokens={"white": 1, "blue": 1, "red": 2}),
            _player(cards=(24,), tokens={"blue": 2, "green": 1, "black": 1}, reserved=(44,)),
        ],
        board=(25,),
        turn=6,
    )
    return {"regions": regions(table_for_viewer, state), "affordable": _card_words(25)}


def _purchase() -> dict[str, Any]:
    """Ada buys a level 2 red card (3 blue, 2 red, 3 black): her two blue cards and her black
    card pay three of it, her tokens the rest, a gold standing in for the black she lacks."""
    before = _position(
        [
            _player(
                cards=(8, 9, 35),
                tokens={"blue": 1, "red": 2, "black": 1, "gold": 1},
                reserved=(77,),
            ),
            _player(cards=(24, 0), tokens={"green": 2, "white": 1}),
        ],
        board=(59,),
        turn=10,
    )
    payment = {"blue": 1, "red": 2, "black": 1, "gold": 1}
    after = play(before, {"type": "buy_card", "card": 59, "payment": payment})
    drawn = regions(table_for_viewer, before)
    return {
        "card": _card(drawn, 59),
        "before": only_seat(drawn, 0),
        "after": only_seat(regions(table_for_viewer, after), 0),
        "payment": payment,
    }


def _noble() -> dict[str, Any]:
    """Ada's three white cards pay the whole of a red card; with it she has the three red,
    three white and three black bonuses a noble asks for, and the noble visits her."""
    before = _position(
        [
            _player(cards=(0, 1, 2, 26, 30, 32, 33, 34), tokens={"green": 2, "blue": 1}),
            _player(cards=(16, 17, 8), tokens={"white": 2, "red": 1}),
        ],
        board=(24,),
        nobles=(7, 2, 5),
        turn=16,
    )
    after = play(before, {"type": "buy_card", "card": 24})
    drawn = regions(table_for_viewer, before)
    return {
        "nobles": drawn["nobles"],
        "card": _card(drawn, 24),
        "before": only_seat(drawn, 0),
        "after": only_seat(regions(table_for_viewer, after), 0),
        "after_nobles": regions(table_for_viewer, after)["nobles"],
    }


def _token_limit() -> dict[str, Any]:
    """Ada holds nine tokens and takes three more: twelve, so she gives two back."""
    before = _position(
        [
            _player(
                cards=(16, 8),
                tokens={"white": 2, "blue": 2, "green": 2, "red": 1, "black": 2},
            ),
            _player(cards=(24,), tokens={"red": 1}),
        ],
        turn=8,
    )
    over = play(before, {"type": "take_gems", "gems": ["blue", "green", "red"]})
    after = play(over, {"type": "return_tokens", "tokens": {"white": 1, "black": 1}})
    return {
        "over": only_seat(regions(table_for_viewer, over), 0),
        "after": only_seat(regions(table_for_viewer, after), 0),
    }


def _end() -> dict[str, Any]:
    """Ada reaches 15 points first; the round goes on to Ben, who reaches 15 too with fewer
    cards, and wins on that."""
    ada = _player(
        cards=(71, 74, 80, 7, 23, 16, 17, 24, 25, 32),
        tokens={"red": 3, "black": 2, "blue": 1},
    )
    ben = _player(cards=(89, 83, 15, 0, 1, 2, 3), tokens={"white": 3, "blue": 2, "green": 1})
    start = _position([ada, ben], board=(44, 77), turn=30)
    reached = play(start, {"type": "buy_card", "card": 44})
    over = play(reached, {"type": "buy_card", "card": 77})
    result = engine.outcome(over)
    assert result is not None, "the example's last move ends the game"
    return {
        "reached": regions(table_for_viewer, reached)["players"],
        "over": regions(table_for_viewer, over, seat=None)["players"],
        "cards_bought": result.cards_bought,
        "points": result.points,
        "winners": result.winners,
    }


def _card_words(card: int) -> dict[str, Any]:
    return engine.card_json(card, "splendor")


@cache
def examples() -> dict[str, Any]:
    """Every picture of the page, by name: built once per process (they never change)."""
    return {
        "choices": _choices(),
        "purchase": _purchase(),
        "noble": _noble(),
        "token_limit": _token_limit(),
        "end": _end(),
    }


HOW_TO_PLAY = HowToPlay(template="games/how_to_play/splendor.html", examples=examples)
