"""Hand-built Splendor positions for the rules tests (python-chess style).

A test states the position it needs next to its asserts::

    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 3, "black": 4, "gold": 5},
        hands=[hand(), hand(tokens={"red": 1})],
    )

Anything not given is filled in plainly: empty hands, a supply holding every token no hand holds,
the lowest free card ids face up, the other free cards in the decks (lowest id on top unless
``deck_tops`` says otherwise), the lowest free nobles on the table. :func:`position` refuses a
position the engine could not read back (a card in two places, tokens that do not add up), by
round-tripping it through ``state_to_json``/``state_from_json``.

Facts of the rulebook (tokens per player count, gold, nobles) are written out here rather than
read from the engine, so a wrong engine constant cannot hide behind its own helper.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import apply_action, state_from_json, state_to_json
from games.engine.splendor.actions import Action, TakeGems
from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.state import MAIN, GameState, PlayerState

COLOURS: tuple[str, ...] = ("white", "blue", "green", "red", "black", "gold")
GEM_NAMES: tuple[str, ...] = COLOURS[:5]
GEMS_PER_COLOUR: dict[int, int] = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS = 5
SLOTS = 4


def tokens(**counts: int) -> tuple[int, ...]:
    """Six token counts from colour names: ``tokens(green=1, gold=2)``."""
    unknown = set(counts) - set(COLOURS)
    if unknown:
        raise ValueError(f"unknown colour(s): {sorted(unknown)}")
    return tuple(counts.get(name, 0) for name in COLOURS)


def take(*names: str) -> TakeGems:
    """A take-gems action from colour names: ``take("red", "red")``."""
    return TakeGems(tuple(sorted(COLOURS.index(name) for name in names)))


def full_supply(players: int) -> dict[str, int]:
    """The supply at the start of a game for this player count."""
    gems = GEMS_PER_COLOUR[players]
    return {**dict.fromkeys(GEM_NAMES, gems), "gold": GOLD_TOKENS}


@dataclass(frozen=True)
class Hand:
    """What one player holds. ``reserved`` lists every reserved card in the order reserved;
    ``blind`` the ones among them taken unseen from a deck."""

    tokens: Mapping[str, int] = field(default_factory=dict)
    cards: Sequence[int] = ()
    reserved: Sequence[int] = ()
    blind: Sequence[int] = ()
    nobles: Sequence[int] = ()


def hand(
    tokens: Mapping[str, int] | None = None,
    *,
    cards: Iterable[int] = (),
    reserved: Iterable[int] = (),
    blind: Iterable[int] = (),
    nobles: Iterable[int] = (),
) -> Hand:
    reserved_cards = tuple(reserved)
    blind_cards = tuple(blind)
    if not set(blind_cards) <= set(reserved_cards):
        raise ValueError("a blind reserve must also be listed in reserved")
    return Hand(
        tokens=dict(tokens or {}),
        cards=tuple(cards),
        reserved=reserved_cards,
        blind=blind_cards,
        nobles=tuple(nobles),
    )


def position(
    players: int = 2,
    *,
    supply: Mapping[str, int] | None = None,
    board: Mapping[int, Sequence[int | None]] | None = None,
    deck_tops: Mapping[int, Sequence[int]] | None = None,
    hands: Sequence[Hand] = (),
    nobles: Sequence[int] | None = None,
    current: int = 0,
    phase: str = MAIN,
    turn: int | None = None,
    passes_this_round: int = 0,
    pending_nobles: Sequence[int] = (),
) -> GameState:
    """A consistent state built from the parts a test cares about.

    ``board`` maps a level to its row (shorter rows are padded with empty slots);
    ``deck_tops`` maps a level to the cards on top of its deck, top first; the rest of the
    level's free cards follow in id order. ``turn`` defaults to ``current`` (the first round).
    """
    if len(hands) > players:
        raise ValueError("more hands than players")
    all_hands = [*hands, *(hand() for _ in range(players - len(hands)))]
    board = dict(board or {})
    deck_tops = dict(deck_tops or {})

    held = [card for h in all_hands for card in (*h.cards, *h.reserved)]
    placed = [
        *held,
        *(card for row in board.values() for card in row if card is not None),
        *(card for top in deck_tops.values() for card in top),
    ]
    rows: list[tuple[int | None, ...]] = []
    decks: list[tuple[int, ...]] = []
    for level in (1, 2, 3):
        free = [card.id for card in CARDS if card.level == level and card.id not in placed]
        row: list[int | None]
        if level in board:
            row = list(board[level])
        else:
            row = list(free[:SLOTS])
            free = free[SLOTS:]
        if len(row) > SLOTS:
            raise ValueError(f"a board row has {SLOTS} slots")
        rows.append((*row, *([None] * (SLOTS - len(row)))))
        decks.append((*deck_tops.get(level, ()), *free))

    held_nobles = [noble for h in all_hands for noble in h.nobles]
    if nobles is None:
        free_nobles = [noble.id for noble in NOBLES if noble.id not in held_nobles]
        nobles = free_nobles[: players + 1 - len(held_nobles)]

    held_tokens = {name: sum(h.tokens.get(name, 0) for h in all_hands) for name in COLOURS}
    expected = {name: full_supply(players)[name] - held_tokens[name] for name in COLOURS}
    if supply is None:
        supply = expected
    elif any(supply.get(name, 0) != expected[name] for name in COLOURS):
        raise ValueError(f"tokens do not add up: with these hands the supply is {expected}")

    state = GameState(
        players=tuple(_player(h) for h in all_hands),
        supply=tokens(**supply),
        decks=tuple(decks),
        board=tuple(rows),
        nobles=tuple(nobles),
        current=current,
        phase=phase,
        turn=current if turn is None else turn,
        passes_this_round=passes_this_round,
        pending_nobles=tuple(pending_nobles),
    )
    # The engine's own reader proves the position consistent (every card in exactly one place,
    # tokens conserved) and recomputes bonuses and points: they must agree with ours.
    if state_from_json(state_to_json(state)) != state:
        raise ValueError("the engine reads this position back differently")
    return state


def _player(h: Hand) -> PlayerState:
    bonuses = [0] * len(GEM_NAMES)
    for card in h.cards:
        bonuses[CARDS[card].colour] += 1
    points = sum(CARDS[card].points for card in h.cards) + 3 * len(h.nobles)
    return PlayerState(
        tokens=tokens(**h.tokens),
        cards=tuple(h.cards),
        reserved=tuple(h.reserved),
        blind=tuple(h.blind),
        nobles=tuple(h.nobles),
        bonuses=tuple(bonuses),
        points=points,
    )


def play(state: GameState, *actions: Action) -> GameState:
    """The state after applying ``actions`` in order."""
    for action in actions:
        state = apply_action(state, action)
    return state


# Finding cards ---------------------------------------------------------------------------------


def cards_where(
    level: int | None = None,
    colour: str | None = None,
    points: int | None = None,
    cost: Mapping[str, int] | None = None,
) -> list[int]:
    """The ids of every card matching all the given facts (``cost`` must match exactly)."""
    wanted_cost = None if cost is None else tokens(**cost)[:5]
    return [
        card.id
        for card in CARDS
        if (level is None or card.level == level)
        and (colour is None or COLOURS[card.colour] == colour)
        and (points is None or card.points == points)
        and (wanted_cost is None or card.cost == wanted_cost)
    ]


def card_where(
    level: int | None = None,
    colour: str | None = None,
    points: int | None = None,
    cost: Mapping[str, int] | None = None,
) -> int:
    """The lowest id of a card matching all the given facts."""
    found = cards_where(level, colour, points, cost)
    if not found:
        raise LookupError(f"no card: level={level} colour={colour} points={points} cost={cost}")
    return found[0]


def cost_of(card: int) -> dict[str, int]:
    return {GEM_NAMES[i]: n for i, n in enumerate(CARDS[card].cost) if n}


def level_of(card: int) -> int:
    return CARDS[card].level


def points_of(card: int) -> int:
    return CARDS[card].points


def noble_where(**requires: int) -> int:
    """The id of the noble whose requirement is exactly ``requires`` (colour name to bonuses)."""
    wanted = tokens(**requires)[:5]
    for noble in NOBLES:
        if noble.requires == wanted:
            return noble.id
    raise LookupError(f"no noble requires {requires}")


def json_of(state: GameState) -> dict[str, Any]:
    return state_to_json(state)
