"""The engine contract (design.md, "The engine contract"), one entry point per operation.

Variant names select the rules at the edge: ``new_game`` and the JSON readers. Every later call
takes the state (or setup) itself. Only the base game exists; Splendor Duel will join here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import MalformedJSON, UnknownVariant
from games.engine.splendor import actions as splendor_actions
from games.engine.splendor import codec as splendor_codec
from games.engine.splendor import fork as splendor_fork
from games.engine.splendor import legality, scoring, setup, transitions, visibility
from games.engine.splendor.gems import tokens_from_json, tokens_to_json
from games.engine.splendor.state import GAME_OVER, GameState
from games.engine.splendor.state import Setup as SplendorSetup

VARIANTS: tuple[str, ...] = ("splendor",)

State = GameState
Setup = SplendorSetup
Action = splendor_actions.Action
Outcome = scoring.Outcome


def new_game(
    variant: str, seats: int, seed: int, options: Mapping[str, Any] | None = None
) -> Setup:
    """All of a game's randomness, drawn from ``seed``: record it, and keep it private."""
    _check_variant(variant)
    return setup.new_game(seats, seed, options)


def setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    """A setup that starts a new game at ``position``, a ``view`` of some game at some moment.

    Only what the view shows is kept; the cards it hides are dealt afresh from ``seed``.
    """
    _check_json_variant(position)
    return splendor_fork.setup_from_position(position, seed)


def initial_state(game_setup: Setup) -> State:
    return setup.initial_state(game_setup)


def legal_actions(state: State) -> list[Action]:
    """Exactly the options of the current phase (see ``games.engine.splendor.legality``)."""
    return legality.legal_actions(state)


def apply_action(state: State, action: Action) -> State:
    """The next state; never changes ``state``. Raises ``IllegalAction`` with a readable reason."""
    return transitions.apply_action(state, action)


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs; the scores and winners once it is over."""
    return scoring.outcome(state)


def acting_seat(state: State) -> int | None:
    """The seat whose decision the game waits for, or ``None`` once it is over."""
    return None if state.phase == GAME_OVER else state.current


def view(state: State, viewer: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """The redacted game for a seat (``None``: a spectator).

    ``reveal`` shows every player's reserved cards: for games that are over, never for one
    that runs. The decks stay counts either way; their order is in the revealed setup.
    """
    return visibility.view(state, viewer, reveal=reveal)


def card_json(card: int) -> dict[str, Any]:
    """A card spelled out as in a view: id, level, bonus colour, points and cost."""
    return visibility.card_json(card)


def noble_json(noble: int) -> dict[str, Any]:
    """A noble spelled out as in a view: id, points and the bonuses it requires."""
    return visibility.noble_json(noble)


def payment_options(state: State, card: int) -> list[tuple[int, ...]]:
    """Every exact payment the player to act could make for ``card``, fewest gold first."""
    return legality.payment_options(state, card)


def payment_options_in_view(
    player: Mapping[str, Any], card: Mapping[str, Any]
) -> list[dict[str, int]]:
    """The exact payments open to a player of a view for a card of a view, as token JSON.

    For pages built from a view: the same rule as ``payment_options``, fewest gold first.
    """
    options = legality.exact_payments(
        tokens_from_json(player["tokens"]),
        tokens_from_json(player["bonuses"], size=5),
        tokens_from_json(card["cost"], size=5),
    )
    return [tokens_to_json(payment) for payment in options]


def action_to_json(action: Action) -> dict[str, Any]:
    return splendor_actions.action_to_json(action)


def action_from_json(data: Any, variant: str = "splendor") -> Action:
    _check_variant(variant)
    return splendor_actions.action_from_json(data)


def setup_to_json(game_setup: Setup) -> dict[str, Any]:
    return splendor_codec.setup_to_json(game_setup)


def setup_from_json(data: Any) -> Setup:
    _check_json_variant(data)
    return splendor_codec.setup_from_json(data)


def state_to_json(state: State) -> dict[str, Any]:
    return splendor_codec.state_to_json(state)


def state_from_json(data: Any) -> State:
    _check_json_variant(data)
    return splendor_codec.state_from_json(data)


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise UnknownVariant(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")


def _check_json_variant(data: Any) -> None:
    if not isinstance(data, Mapping) or data.get("variant") not in VARIANTS:
        raise MalformedJSON(f"a JSON object with a variant of: {', '.join(VARIANTS)}")
