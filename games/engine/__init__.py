"""The rules of Splendor and Splendor Duel as a pure library: no Django, no I/O, no clock.

This package is the one facade every other part of the service uses. Functions are keyed by
variant name at the edge (``new_game``, the JSON readers) and by the state's own type afterwards,
so a caller never needs to know which variant it holds. The games are ``"splendor"`` (the base
game, ``games.engine.splendor``) and ``"duel"`` (``games.engine.duel``), listed in one registry
in ``games.engine.facade``.
"""

from __future__ import annotations

from games.engine.errors import IllegalAction, MalformedJSON, UnknownVariant
from games.engine.facade import (
    VARIANTS,
    Action,
    Outcome,
    Setup,
    State,
    acting_seat,
    action_from_json,
    action_to_json,
    apply_action,
    apply_legal,
    card_json,
    initial_state,
    legal_actions,
    new_game,
    noble_json,
    outcome,
    payment_options,
    payment_options_in_view,
    seat_counts,
    setup_from_json,
    setup_from_position,
    setup_to_json,
    state_from_json,
    state_to_json,
    variant_of,
    view,
)

__all__ = [
    "VARIANTS",
    "Action",
    "IllegalAction",
    "MalformedJSON",
    "Outcome",
    "Setup",
    "State",
    "UnknownVariant",
    "acting_seat",
    "action_from_json",
    "action_to_json",
    "apply_action",
    "apply_legal",
    "card_json",
    "initial_state",
    "legal_actions",
    "new_game",
    "noble_json",
    "outcome",
    "payment_options",
    "payment_options_in_view",
    "seat_counts",
    "setup_from_json",
    "setup_from_position",
    "setup_to_json",
    "state_from_json",
    "state_to_json",
    "variant_of",
    "view",
]
