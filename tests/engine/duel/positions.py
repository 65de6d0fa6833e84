"""Hand-built Splendor Duel positions for the rules tests (python-chess style).

A test states the position it needs next to its asserts::

    state = position(
        board=["WWW..", "P....", ".....", ".....", "....Y"],
        hands=[hand(tokens={"red": 2}, privileges=1), hand()],
    )

A board is five rows of five letters: W white, B blue, G green, R red, K black, P pearl, Y gold
(yellow), ``.`` an empty space.

Anything not given is filled in plainly: empty hands; a board holding every token no hand holds
(laid out in colour order along the rows) and an empty bag, or, when the board is given, a bag
holding the rest; a pyramid row's slots not given are filled with the lowest free card ids
(``None`` leaves a slot empty); the other free cards in the decks, lowest id on top unless
``deck_tops`` says otherwise; every royal no hand holds on the table. :func:`position` builds the
engine's JSON and reads it back with ``state_from_json``, so it refuses any position the engine
could not accept.

Facts of the rulebook are written out here rather than read from the engine, so a wrong engine
constant cannot hide behind its own helper.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import apply_action, state_from_json
from games.engine.duel.actions import Action, TakeTokens
from games.engine.duel.catalogue import CARDS
from games.engine.duel.state import MAIN, DuelState

COLOURS: tuple[str, ...] = ("white", "blue", "green", "red", "black", "pearl", "gold")
LETTERS: dict[str, str] = {
    "W": "white",
    "B": "blue",
    "G": "green",
    "R": "red",
    "K": "black",
    "P": "pearl",
    "Y": "gold",
}
TOKENS_IN_GAME: dict[str, int] = {
    "white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3,
}  # fmt: skip
PYRAMID_WIDTHS = {1: 5, 2: 4, 3: 3}
ROYAL_IDS = (0, 1, 2, 3)
EMPTY_BOARD = (".....",) * 5


def tokens(**counts: int) -> tuple[int, ...]:
    """Seven token counts from colour names: ``tokens(green=1, gold=2)``."""
    unknown = set(counts) - set(COLOURS)
    if unknown:
        raise ValueError(f"unknown colour(s): {sorted(unknown)}")
    return tuple(counts.get(name, 0) for name in COLOURS)


def space(row: int, column: int) -> int:
    return row * 5 + column


def line(*cells: tuple[int, int]) -> TakeTokens:
    """A take-tokens action from (row, column) pairs."""
    return TakeTokens(tuple(sorted(space(row, column) for row, column in cells)))


@dataclass(frozen=True)
class Hand:
    tokens: Mapping[str, int] = field(default_factory=dict)
    privileges: int = 0
    cards: Sequence[int] = ()
    jokers: Mapping[int, str | None] = field(default_factory=dict)
    """The colour each bought joker joined (``None``: its colour is being chosen)."""
    reserved: Sequence[int] = ()
    blind: Sequence[int] = ()
    royals: Sequence[int] = ()


def hand(
    tokens: Mapping[str, int] | None = None,
    *,
    privileges: int = 0,
    cards: Iterable[int] = (),
    jokers: Mapping[int, str | None] | None = None,
    reserved: Iterable[int] = (),
    blind: Iterable[int] = (),
    royals: Iterable[int] = (),
) -> Hand:
    return Hand(
        tokens=dict(tokens or {}),
        privileges=privileges,
        cards=tuple(cards),
        jokers=dict(jokers or {}),
        reserved=tuple(reserved),
        blind=tuple(blind),
        royals=tuple(royals),
    )


def board_rows(rows: Sequence[str]) -> list[list[str | None]]:
    if len(rows) != 5 or any(len(row) != 5 for row in rows):
        raise ValueError("a board is five rows of five letters")
    return [[None if letter == "." else LETTERS[letter] for letter in row] for row in rows]


def position(
    *,
    board: Sequence[str] | None = None,
    hands: Sequence[Hand] = (),
    bag: Mapping[str, int] | None = None,
    pyramid: Mapping[int, Sequence[int | None]] | None = None,
    deck_tops: Mapping[int, Sequence[int]] | None = None,
    royals: Sequence[int] | None = None,
    current: int = 0,
    phase: str = MAIN,
    turn: int = 0,
    extra_turn: bool = False,
    pending_card: int | None = None,
    royal_due: bool = False,
    passes: int = 0,
    bag_draws: Sequence[Sequence[int]] | None = None,
    replenishments: int = 0,
) -> DuelState:
    """A consistent state built from the parts a test cares about."""
    all_hands = [*hands, *(hand() for _ in range(2 - len(hands)))]
    held = {name: sum(h.tokens.get(name, 0) for h in all_hands) for name in COLOURS}
    free = {name: TOKENS_IN_GAME[name] - held[name] for name in COLOURS}
    if board is None:
        letters = "".join(
            letter * (free[name] - (bag or {}).get(name, 0)) for letter, name in LETTERS.items()
        )
        letters = letters.ljust(25, ".")
        board = [letters[row * 5 : row * 5 + 5] for row in range(5)]
    rows = board_rows(board)
    on_board = {name: sum(row.count(name) for row in rows) for name in COLOURS}
    rest = {name: free[name] - on_board[name] for name in COLOURS}
    if min(rest.values()) < 0:
        raise ValueError(f"more tokens on the board and in hand than the game has: {rest}")
    if bag is None:
        bag = rest
    if any(bag.get(name, 0) != rest[name] for name in COLOURS):
        raise ValueError(f"tokens do not add up: with this board and these hands the bag is {rest}")

    placed = [card for h in all_hands for card in (*h.cards, *h.reserved)]
    pyramid = dict(pyramid or {})
    deck_tops = dict(deck_tops or {})
    placed += [card for row in pyramid.values() for card in row if card is not None]
    placed += [card for top in deck_tops.values() for card in top]
    rows_json: list[list[int | None]] = []
    decks: list[list[int]] = []
    for level in (1, 2, 3):
        left = [card.id for card in CARDS if card.level == level and card.id not in placed]
        width = PYRAMID_WIDTHS[level]
        row = list(pyramid.get(level, ()))
        missing = width - len(row)
        row += left[:missing]
        left = left[missing:]
        rows_json.append(row)
        decks.append([*deck_tops.get(level, ()), *left])

    held_royals = [royal for h in all_hands for royal in h.royals]
    if royals is None:
        royals = [royal for royal in ROYAL_IDS if royal not in held_royals]
    data: dict[str, Any] = {
        "variant": "duel",
        "players": [_player_json(h) for h in all_hands],
        "board": rows,
        "bag": {name: count for name, count in bag.items() if count},
        "bag_draws": [list(order) for order in (bag_draws or [list(range(25))])],
        "replenishments": replenishments,
        "decks": decks,
        "pyramid": rows_json,
        "royals": list(royals),
        "current": current,
        "phase": phase,
        "turn": turn,
        "extra_turn": extra_turn,
        "pending_card": pending_card,
        "royal_due": royal_due,
        "passes": passes,
    }
    state = state_from_json(data)
    assert isinstance(state, DuelState)
    return state


def _player_json(h: Hand) -> dict[str, Any]:
    colours: list[str | None] = []
    for card in h.cards:
        if card in h.jokers:
            joined = h.jokers[card]
            colours.append("joker" if joined is None else joined)
        else:
            own = CARDS[card].colour
            colours.append(None if own < 0 else COLOURS[own])
    return {
        "tokens": {name: count for name, count in h.tokens.items() if count},
        "privileges": h.privileges,
        "cards": list(h.cards),
        "card_colours": colours,
        "reserved": list(h.reserved),
        "blind": list(h.blind),
        "royals": list(h.royals),
    }


def play(state: DuelState, *actions: Action) -> DuelState:
    """The state after applying ``actions`` in order."""
    for action in actions:
        after = apply_action(state, action)
        assert isinstance(after, DuelState)
        state = after
    return state


def cards_where(
    *,
    level: int | None = None,
    colour: str | None = None,
    ability: str | None = None,
    points: int | None = None,
    crowns: int | None = None,
    bonus: int | None = None,
) -> list[int]:
    """The ids of every card matching all the given facts (``colour`` may be "joker"/"none")."""
    names = {**{name: index for index, name in enumerate(COLOURS[:5])}, "joker": -2, "none": -1}
    return [
        card.id
        for card in CARDS
        if (level is None or card.level == level)
        and (colour is None or card.colour == names[colour])
        and (ability is None or card.ability == ability)
        and (points is None or card.points == points)
        and (crowns is None or card.crowns == crowns)
        and (bonus is None or card.bonus == bonus)
    ]
