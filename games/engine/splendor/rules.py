"""The base game's side of the engine contract: what the facade's registry calls for ``"splendor"``.

This module is the package's one public face (``games.engine.rules.Rules``); the facade reaches
the modules behind it only through here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.splendor import (
    actions,
    codec,
    fork,
    legality,
    scoring,
    setup,
    transitions,
    trusted,
    visibility,
)
from games.engine.splendor.state import GAME_OVER, GameState, Setup

VARIANT = "splendor"
SEATS: tuple[int, ...] = tuple(range(setup.MIN_PLAYERS, setup.MAX_PLAYERS + 1))
STATE_TYPE = GameState
SETUP_TYPE = Setup
ACTION_TYPES: tuple[type, ...] = (
    actions.TakeGems,
    actions.ReserveCard,
    actions.ReserveFromDeck,
    actions.BuyCard,
    actions.ReturnTokens,
    actions.ChooseNoble,
    actions.Pass,
)


def new_game(seats: int, seed: int, options: Mapping[str, Any] | None = None) -> Setup:
    return setup.new_game(seats, seed, options)


def initial_state(game_setup: Setup) -> GameState:
    return setup.initial_state(game_setup)


# The calls of every playout and search step are the modules' own functions, not wrappers:
# one Python frame less per call.
legal_actions = legality.legal_actions
apply_action = transitions.apply_action
apply_legal = trusted.apply_legal
outcome = scoring.outcome
TRUSTED_STEPS = trusted.STEPS
"""``apply_legal`` per action type, which the facade calls directly."""


def acting_seat(state: GameState) -> int | None:
    return None if state.phase == GAME_OVER else state.current


def view(state: GameState, viewer: int | None, *, reveal: bool = False) -> dict[str, Any]:
    return visibility.view(state, viewer, reveal=reveal)


def payment_options(state: GameState, card: int) -> list[tuple[int, ...]]:
    return legality.payment_options(state, card)


card_json = visibility.card_json


def action_to_json(action: actions.Action) -> dict[str, Any]:
    return actions.action_to_json(action)


def action_from_json(data: Any) -> actions.Action:
    return actions.action_from_json(data)


def setup_to_json(game_setup: Setup) -> dict[str, Any]:
    return codec.setup_to_json(game_setup)


def setup_from_json(data: Any) -> Setup:
    return codec.setup_from_json(data)


def state_to_json(state: GameState) -> dict[str, Any]:
    return codec.state_to_json(state)


def state_from_json(data: Any) -> GameState:
    return codec.state_from_json(data)


def setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    return fork.setup_from_position(position, seed)
