"""The service layer's small family of errors, each with a stable code.

Each error carries its code (what API clients see) and its HTTP status, which the pages and the
API both answer with: the one table of refusals is this module.
"""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """Base of every refusal the services make; nothing was written when one is raised."""

    code = "game_error"
    http_status = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class GameNotFound(GameError):
    code = "not_found"
    http_status = 404


class NotAllowed(GameError):
    """The caller may not do this: not seated, not their turn, not their seat to give."""

    code = "forbidden"
    http_status = 403


class IllegalMove(GameError):
    """The engine refused the action; the message is the engine's, written for players."""

    code = "illegal_action"
    http_status = 400


class StaleVersion(GameError):
    """The game moved on since the caller last saw it; ``current_version`` says where it is."""

    code = "stale_version"
    http_status = 409

    def __init__(self, current_version: int) -> None:
        super().__init__(
            f"The game moved on: it is at version {current_version}.",
            current_version=current_version,
        )
        self.current_version = current_version


class IdempotencyKeyReused(GameError):
    code = "idempotency_key_reused"
    http_status = 422


class LimitReached(GameError):
    """The account is at one of its caps (``games.commands.limits``): too many games, or too
    fast."""

    code = "limit_reached"
    http_status = 429


class InvalidInput(GameError):
    """A posted form that cannot be read (a move, a seat, a bot level): the request itself is
    wrong, whatever the game's state, so nothing was checked against the game."""

    code = "validation_error"
    http_status = 400


class InvalidRequest(GameError):
    """A lobby or game request that cannot be carried out in the game's present status."""

    code = "invalid_request"
    http_status = 409


class SeatTaken(InvalidRequest):
    """The seat asked for, or every seat, was taken first: by another player or a bot, or by
    a request that won the race for it."""

    code = "seat_taken"


class AlreadySeated(InvalidRequest):
    """The player already sits in this game (perhaps by a request of theirs that won a race);
    a player has one seat per game."""

    code = "already_seated"


class GameNotOver(GameError):
    """An export of a game that still runs: its file exists once the game is over (issue 12).

    409, as every request the game's present status refuses; staff alone may export a running
    game, without its setup."""

    code = "game_not_over"
    http_status = 409


class ImportRejected(GameError):
    """An uploaded game that does not replay (or is not a game file): the message says why,
    naming the first bad step."""

    code = "import_rejected"
    http_status = 400
