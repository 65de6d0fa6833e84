"""Hand-built positions for the bots' tests: a base game's and a Duel's, from a few facts."""

from __future__ import annotations

from typing import Any

import games.engine as engine
from games.engine import State
from games.engine.duel.catalogue import CARD_IDS_BY_LEVEL, TOKEN_COUNTS
from games.engine.duel.tokens import COLOUR_NAMES
from games.engine.splendor.catalogue import CARDS
from games.engine.splendor.state import MAIN


def build_state(
    *,
    hands: list[dict[str, Any]],
    board: list[list[int | None]],
    nobles: list[int],
    phase: str = MAIN,
    pending: tuple[int, ...] = (),
) -> State:
    """A hand-built position: every card not placed goes to its level's deck, lowest first."""
    gems = {2: 4, 3: 5, 4: 7}[len(hands)]
    placed = {card for row in board for card in row if card is not None}
    for hand in hands:
        placed.update(hand.get("cards", ()))
        placed.update(hand.get("reserved", ()))
    colours = ("white", "blue", "green", "red", "black", "gold")
    supply = {
        colour: (5 if colour == "gold" else gems) - sum(h["tokens"].get(colour, 0) for h in hands)
        for colour in colours
    }
    data = {
        "variant": "splendor",
        "players": [
            {
                "tokens": hand["tokens"],
                "cards": list(hand.get("cards", ())),
                "reserved": list(hand.get("reserved", ())),
                "blind": list(hand.get("blind", ())),
                "nobles": [],
            }
            for hand in hands
        ],
        "supply": {colour: count for colour, count in supply.items() if count},
        "decks": [
            [card.id for card in CARDS if card.level == level and card.id not in placed]
            for level in (1, 2, 3)
        ],
        "board": board,
        "nobles": nobles,
        "current": 0,
        "phase": phase,
        "turn": 6,
        "passes_this_round": 0,
        "pending_nobles": list(pending),
    }
    return engine.state_from_json(data)


def build_duel_state(
    *, hands: list[dict[str, Any]], pyramid: list[list[int]], seed: int = 1
) -> State:
    """A hand-built Duel position at the start of seat 0's turn: ``hands`` give each player's
    tokens (by colour name) and reserved cards, ``pyramid`` the face-up cards; the tokens left
    lie on the board, space by space, and the cards left are in the decks, lowest first."""
    data = engine.state_to_json(engine.initial_state(engine.new_game("duel", 2, seed)))
    held = [sum(hand["tokens"].get(name, 0) for hand in hands) for name in COLOUR_NAMES]
    left = [
        name
        for name, total, taken in zip(COLOUR_NAMES, TOKEN_COUNTS, held, strict=True)
        for _ in range(total - taken)
    ]
    spaces: list[str | None] = left + [None] * (25 - len(left))
    placed = {card for row in pyramid for card in row}
    for hand in hands:
        placed.update(hand.get("reserved", ()))
    data.update(
        players=[
            {
                "tokens": hand["tokens"],
                "privileges": 0,
                "cards": [],
                "card_colours": [],
                "reserved": list(hand.get("reserved", ())),
                "blind": [],
                "royals": [],
            }
            for hand in hands
        ],
        board=[spaces[row * 5 : row * 5 + 5] for row in range(5)],
        bag={},
        pyramid=pyramid,
        decks=[
            [card for card in CARD_IDS_BY_LEVEL[level] if card not in placed] for level in (1, 2, 3)
        ],
        current=0,
        phase=MAIN,
        turn=20,
    )
    return engine.state_from_json(data)
