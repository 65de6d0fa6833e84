"""What every game's engine package provides to the facade: the engine contract for one game.

Each package has a ``rules`` module that satisfies :class:`Rules` (a module can implement a
protocol), and ``games.engine.facade`` lists those modules in its registry, one line per game.
Its functions take the package's own types; the facade picks the package from the variant name,
or from the type of the state, setup or action it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Rules(Protocol):
    @property
    def VARIANT(self) -> str:
        """The variant's name in the notation, the API and the database."""

    @property
    def SEATS(self) -> tuple[int, ...]:
        """The numbers of players the game can be played by."""

    @property
    def STATE_TYPE(self) -> type:
        """The class of the package's states: how the facade knows a state's game."""

    @property
    def SETUP_TYPE(self) -> type: ...

    @property
    def ACTION_TYPES(self) -> tuple[type, ...]: ...

    def new_game(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        """All of a game's randomness, drawn from ``seed`` and recorded in the setup."""

    def initial_state(self, game_setup: Any) -> Any: ...

    def legal_actions(self, state: Any) -> list[Any]:
        """Exactly the options of the current phase."""

    def apply_action(self, state: Any, action: Any) -> Any:
        """The next state; never changes ``state``; ``IllegalAction`` with a readable reason."""

    def apply_legal(self, state: Any, action: Any) -> Any:
        """``apply_action`` without its checks, for an action ``legal_actions`` listed."""

    def outcome(self, state: Any) -> Any:
        """``None`` while the game runs; an outcome with ``points``, ``cards_bought``,
        ``winners``, ``decided_by`` and ``ended_by`` once it is over."""

    def acting_seat(self, state: Any) -> int | None: ...

    def view(self, state: Any, viewer: int | None, *, reveal: bool = False) -> dict[str, Any]:
        """The redacted game for a seat (``None``: a spectator); ``reveal`` for a finished one."""

    def payment_options(self, state: Any, card: int) -> list[tuple[int, ...]]: ...

    def card_json(self, card: int) -> dict[str, Any]:
        """A card of the game spelled out as in its views."""

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def action_from_json(self, data: Any) -> Any: ...

    def setup_to_json(self, game_setup: Any) -> dict[str, Any]: ...

    def setup_from_position(self, position: Mapping[str, Any], seed: int) -> Any:
        """A setup that starts a new game at ``position`` (a view): a fork from that moment.

        Cards the view hides are dealt afresh from ``seed``; ``IllegalAction`` where the game
        cannot start from a position."""

    def setup_from_json(self, data: Any) -> Any: ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: Any) -> Any: ...
