"""Facts of a base-game Splendor game, folded through the engine's facade.

The fold compares each state with the one before: cards new on the display were seen, cards new
in a hand were bought or reserved, nobles new to a player visited. Only this module knows the
base game's state shape; a reserve from a deck is counted (the end reveals it) but a card that
never lay face up is never "seen".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from analytics.facts import ActionFold
from games import engine

CARD_COUNT, NOBLE_COUNT = 90, 10
COLOURS = ("white", "blue", "green", "red", "black")


def fold(
    setup_json: Mapping[str, Any], actions: Iterable[tuple[int | None, Mapping[str, Any]]]
) -> ActionFold:
    state = engine.initial_state(engine.setup_from_json(setup_json))
    players = len(state.players)
    result = ActionFold(nobles_in_play=list(state.nobles), actions=[{} for _ in range(players)])
    seen = {card for row in state.board for card in row if card is not None}
    result.cards_seen.extend(sorted(seen))
    for seat, action_json in actions:
        acting = state.current if seat is None else seat
        turn = state.turn // players + 1
        before = state.players[acting]
        board_before = state.board
        state = engine.apply_action(state, engine.action_from_json(action_json))
        kind = action_json["type"]
        counts = result.actions[acting]
        counts[kind] = counts.get(kind, 0) + 1
        after = state.players[acting]
        if after.cards != before.cards:
            result.purchases.extend(
                (card, acting, turn) for card in after.cards[len(before.cards) :]
            )
        for card in after.reserved:
            if card not in before.reserved:
                result.reserves.append((card, acting, turn))
        if after.nobles != before.nobles:
            result.visits.extend(
                (noble, acting, turn) for noble in after.nobles[len(before.nobles) :]
            )
        if state.board != board_before:
            for row in state.board:
                for card in row:
                    if card is not None and card not in seen:
                        seen.add(card)
                        result.cards_seen.append(card)
    result.turns = state.turn
    return result


@cache
def _cards() -> tuple[dict[str, Any], ...]:
    return tuple(engine.card_json(card) for card in range(CARD_COUNT))


@cache
def _nobles() -> tuple[dict[str, Any], ...]:
    return tuple(engine.noble_json(noble) for noble in range(NOBLE_COUNT))


def cards() -> list[dict[str, Any]]:
    return list(_cards())


def nobles() -> list[dict[str, Any]]:
    return list(_nobles())
