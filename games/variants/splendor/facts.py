"""The base game's analytics facts: a game folded through the engine's facade, its catalogue.

The actions come from the event log, where each was checked by the engine before it was written,
so they go through the engine's trusted path (``apply_legal``), as a replay does: the fold is
most of what a rebuild spends. The fold compares each state with the one before: cards new on
the display were seen, cards new in a hand were bought or reserved, nobles new to a player
visited. Only this module knows the base game's state shape. A card reserved unseen from a
deck (the end reveals which) is counted as reserved and as seen: it came into play in a hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from games import engine
from games.variants.play_facts import ActionFold, GameAnalytics, PlayedAction, TurnOrderWords
from games.variants.words import LETTERS

VARIANT = "splendor"
CARD_COUNT, NOBLE_COUNT = 90, 10
COLOURS = ("white", "blue", "green", "red", "black")


def fold(setup_json: Mapping[str, Any], actions: Iterable[PlayedAction]) -> ActionFold:
    state = engine.initial_state(engine.setup_from_json(setup_json))
    players = len(state.players)
    result = ActionFold(
        first_seat=state.current,
        nobles_in_play=list(state.nobles),
        actions=[{} for _ in range(players)],
    )
    seen = {card for row in state.board for card in row if card is not None}
    result.cards_seen.extend(sorted(seen))
    apply_legal = engine.apply_legal
    for seat, action, kind in actions:
        acting = state.current if seat is None else seat
        turn = state.turn // players + 1
        before = state.players[acting]
        board_before = state.board
        state = apply_legal(state, action)
        counts = result.actions[acting]
        counts[kind] = counts.get(kind, 0) + 1
        after = state.players[acting]
        # Most actions leave the hand's tuples as they were: the identity test skips them.
        if after.cards is not before.cards and after.cards != before.cards:
            result.purchases.extend(
                (card, acting, turn) for card in after.cards[len(before.cards) :]
            )
        if after.reserved is not before.reserved:
            for card in after.reserved:
                if card not in before.reserved:
                    result.reserves.append((card, acting, turn))
        if after.nobles is not before.nobles and after.nobles != before.nobles:
            result.visits.extend(
                (noble, acting, turn) for noble in after.nobles[len(before.nobles) :]
            )
        if state.board is not board_before and state.board != board_before:
            for row in state.board:
                for card in row:
                    if card is not None and card not in seen:
                        seen.add(card)
                        result.cards_seen.append(card)
    result.count_blind_reserves_as_seen()
    result.turns = state.turn
    result.colours = [_colours_of(player.cards) for player in state.players]
    return result


def _colours_of(cards: tuple[int, ...]) -> dict[str, int]:
    colours: dict[str, int] = {}
    for card in cards:
        colour = _cards()[card]["colour"]
        colours[colour] = colours.get(colour, 0) + 1
    return colours


@cache
def _cards() -> tuple[dict[str, Any], ...]:
    return tuple(engine.card_json(card, VARIANT) for card in range(CARD_COUNT))


@cache
def _nobles() -> tuple[dict[str, Any], ...]:
    return tuple(engine.noble_json(noble) for noble in range(NOBLE_COUNT))


def cards() -> list[dict[str, Any]]:
    return list(_cards())


def nobles() -> list[dict[str, Any]]:
    return list(_nobles())


def card_label(card: Mapping[str, Any]) -> str:
    """Level, bonus letter and points, then the cost: "L1 B0 1W 1G 1R 1K" (the table draws the
    same three on a card); no two of the 90 cards share one."""
    cost = " ".join(f"{count}{LETTERS[colour]}" for colour, count in card["cost"].items())
    return f"L{card['level']} {LETTERS[card['colour']]}{card['points']} {cost}"


ANALYTICS = GameAnalytics(
    name=VARIANT,
    fold=fold,
    cards=cards,
    nobles=nobles,
    colours=COLOURS,
    card_label=card_label,
    card_key="each bar names its card by level, bonus colour (W white, B blue, G green, R red, "
    "K black) with points, and cost",
    turn_order=TurnOrderWords(
        short="Seats",
        heading="Win rate by seat",
        places=("seat 1 (moves first)", "seat 2", "seat 3", "seat 4"),
        note="Seat 1 moves first, then the others in seat order.",
    ),
    endings_note="reached_points: someone reached 15 and the round was finished; all_passed: "
    "nobody could move; resignation: a player resigned (a time-out ends no game: a bot moves "
    "for the player who is away).",
)
