"""The engine contract (design.md, "The engine contract"), one entry point per operation.

Every game is an engine package with a ``rules`` module (``games.engine.rules.Rules``), listed
once in :data:`_REGISTRY`. Variant names select the rules at the edge: ``new_game`` and the JSON
readers. Every later call takes the state (or setup, or action) itself, and its type says which
game it belongs to, so a caller never needs to know which variant it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine.duel import rules as duel_rules
from games.engine.duel.actions import Action as DuelAction
from games.engine.duel.scoring import Outcome as DuelOutcome
from games.engine.duel.state import DuelState
from games.engine.duel.state import Setup as DuelSetup
from games.engine.errors import MalformedJSON, UnknownVariant
from games.engine.rules import Rules
from games.engine.splendor import actions as splendor_actions
from games.engine.splendor import legality as splendor_legality
from games.engine.splendor import rules as splendor_rules
from games.engine.splendor import scoring as splendor_scoring
from games.engine.splendor import visibility as splendor_visibility
from games.engine.splendor.gems import tokens_from_json, tokens_to_json
from games.engine.splendor.state import GameState
from games.engine.splendor.state import Setup as SplendorSetup

_REGISTRY: dict[str, Rules] = {
    splendor_rules.VARIANT: splendor_rules,
    duel_rules.VARIANT: duel_rules,
}
"""Every game the engine knows, by variant name: a new game is a new package and one line."""

VARIANTS: tuple[str, ...] = tuple(_REGISTRY)

State = GameState | DuelState
Setup = SplendorSetup | DuelSetup
Action = splendor_actions.Action | DuelAction
Outcome = splendor_scoring.Outcome | DuelOutcome

_BY_STATE_TYPE: dict[type, Rules] = {rules.STATE_TYPE: rules for rules in _REGISTRY.values()}
_BY_SETUP_TYPE: dict[type, Rules] = {rules.SETUP_TYPE: rules for rules in _REGISTRY.values()}
_BY_ACTION_TYPE: dict[type, Rules] = {
    action_type: rules for rules in _REGISTRY.values() for action_type in rules.ACTION_TYPES
}
_TRUSTED_STEP_BY_ACTION_TYPE: dict[type, Callable[[Any, Any], Any]] = {
    action_type: getattr(rules, "TRUSTED_STEPS", {}).get(action_type, rules.apply_legal)
    for rules in _REGISTRY.values()
    for action_type in rules.ACTION_TYPES
}
"""``apply_legal`` by the action's type (it belongs to one game, as the state does): a game's
rules module may offer ``TRUSTED_STEPS``, its trusted step per action type, to be called
without a dispatching call in between; otherwise its ``apply_legal`` is called."""
_LEGAL_ACTIONS_BY_STATE_TYPE: dict[type, Callable[[Any], list[Any]]] = {
    rules.STATE_TYPE: rules.legal_actions for rules in _REGISTRY.values()
}
_OUTCOME_BY_STATE_TYPE: dict[type, Callable[[Any], Any]] = {
    rules.STATE_TYPE: rules.outcome for rules in _REGISTRY.values()
}
_ACTING_SEAT_BY_STATE_TYPE: dict[type, Callable[[Any], int | None]] = {
    rules.STATE_TYPE: rules.acting_seat for rules in _REGISTRY.values()
}
"""The two calls of every playout step besides ``apply_legal``, and the seat to act, read after
every action of a replay: straight to the game's own functions, one dictionary read, no lookup
on the rules module."""


def new_game(
    variant: str, seats: int, seed: int, options: Mapping[str, Any] | None = None
) -> Setup:
    """All of a game's randomness, drawn from ``seed``: record it, and keep it private."""
    setup: Setup = _rules(variant).new_game(seats, seed, options)
    return setup


def seat_counts(variant: str) -> tuple[int, ...]:
    """The numbers of players ``variant`` can be played by."""
    return _rules(variant).SEATS


def variant_of(state: State) -> str:
    """The variant name of a state."""
    return _rules_of_state(state).VARIANT


def setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    """A setup that starts a new game at ``position``, a ``view`` of some game at some moment.

    Only what the view shows is kept; the cards it hides are dealt afresh from ``seed``.
    """
    setup: Setup = _rules_of_json(position).setup_from_position(position, seed)
    return setup


def initial_state(game_setup: Setup) -> State:
    state: State = _of_type(_BY_SETUP_TYPE, game_setup, "setup").initial_state(game_setup)
    return state


def legal_actions(state: State) -> list[Action]:
    """Exactly the options of the current phase."""
    try:
        options = _LEGAL_ACTIONS_BY_STATE_TYPE[type(state)]
    except KeyError:
        raise _unknown(state, "state") from None
    return options(state)


def apply_action(state: State, action: Action) -> State:
    """The next state; never changes ``state``. Raises ``IllegalAction`` with a readable reason."""
    after: State = _rules_of_state(state).apply_action(state, action)
    return after


def apply_legal(state: State, action: Action) -> State:
    """The trusted path: ``apply_action`` without its checks, for an action the engine listed.

    Only for actions taken from ``legal_actions(state)`` (or a payment from
    ``payment_options``): playouts, bots' search, the replay of recorded events. Anything from
    outside goes through ``apply_action``. Same result as ``apply_action`` for a legal action.
    """
    try:
        step = _TRUSTED_STEP_BY_ACTION_TYPE[type(action)]
    except KeyError:
        raise _unknown(action, "action") from None
    after: State = step(state, action)
    return after


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs; the scores and winners once it is over."""
    try:
        result_of = _OUTCOME_BY_STATE_TYPE[type(state)]
    except KeyError:
        raise _unknown(state, "state") from None
    result: Outcome | None = result_of(state)
    return result


def acting_seat(state: State) -> int | None:
    """The seat whose decision the game waits for, or ``None`` once it is over."""
    try:
        seat_of = _ACTING_SEAT_BY_STATE_TYPE[type(state)]
    except KeyError:
        raise _unknown(state, "state") from None
    return seat_of(state)


def view(state: State, viewer: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """The redacted game for a seat (``None``: a spectator).

    ``reveal`` shows every player's reserved cards: for games that are over, never for one
    that runs. The decks stay counts either way; their order is in the revealed setup.
    """
    return _rules_of_state(state).view(state, viewer, reveal=reveal)


def payment_options(state: State, card: int) -> list[tuple[int, ...]]:
    """Every exact payment the player to act could make for ``card``, fewest gold first."""
    return _rules_of_state(state).payment_options(state, card)


def card_json(card: int, variant: str) -> dict[str, Any]:
    """A card of ``variant`` spelled out as in its views (base game: id, level, bonus colour,
    points and cost)."""
    return _rules(variant).card_json(card)


def noble_json(noble: int) -> dict[str, Any]:
    """A noble spelled out as in a view: id, points and the bonuses it requires."""
    return splendor_visibility.noble_json(noble)


def payment_options_in_view(
    player: Mapping[str, Any], card: Mapping[str, Any]
) -> list[dict[str, int]]:
    """The exact payments open to a player of a base-game view for a card of that view.

    For pages built from a view: the same rule as ``payment_options``, fewest gold first.
    """
    options = splendor_legality.exact_payments(
        tokens_from_json(player["tokens"]),
        tokens_from_json(player["bonuses"], size=5),
        tokens_from_json(card["cost"], size=5),
    )
    return [tokens_to_json(payment) for payment in options]


def action_to_json(action: Action) -> dict[str, Any]:
    return _of_type(_BY_ACTION_TYPE, action, "action").action_to_json(action)


def action_from_json(data: Any, variant: str) -> Action:
    action: Action = _rules(variant).action_from_json(data)
    return action


def setup_to_json(game_setup: Setup) -> dict[str, Any]:
    return _of_type(_BY_SETUP_TYPE, game_setup, "setup").setup_to_json(game_setup)


def setup_from_json(data: Any) -> Setup:
    setup: Setup = _rules_of_json(data).setup_from_json(data)
    return setup


def state_to_json(state: State) -> dict[str, Any]:
    return _rules_of_state(state).state_to_json(state)


def state_from_json(data: Any) -> State:
    state: State = _rules_of_json(data).state_from_json(data)
    return state


def _rules(variant: str) -> Rules:
    rules = _REGISTRY.get(variant) if isinstance(variant, str) else None
    if rules is None:
        raise UnknownVariant(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    return rules


def _rules_of_state(state: State) -> Rules:
    # One dictionary lookup. ``legal_actions``, ``apply_legal`` and ``outcome``, the calls of
    # every playout and search step, make it inline to save a Python frame.
    rules = _BY_STATE_TYPE.get(type(state))
    return rules if rules is not None else _of_type(_BY_STATE_TYPE, state, "state")


def _of_type(table: dict[type, Rules], value: object, what: str) -> Rules:
    rules = table.get(type(value))
    if rules is None:
        raise _unknown(value, what)
    return rules


def _unknown(value: object, what: str) -> TypeError:
    return TypeError(f"not a known game's {what}: {type(value).__name__}")


def _rules_of_json(data: Any) -> Rules:
    variant = data.get("variant") if isinstance(data, Mapping) else None
    rules = _REGISTRY.get(variant) if isinstance(variant, str) else None
    if rules is None:
        raise MalformedJSON(f"a JSON object with a variant of: {', '.join(VARIANTS)}")
    return rules
