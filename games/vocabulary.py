"""The kinds of event a game's log holds: their one home.

Plain Python (no Django), so the pure layers (the projection, the notation) and the model's
choices (``GameEvent.Kind``) name the same strings. A ``StrEnum``: each kind is the string
stored in the log, so it compares and hashes as that string.
"""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    GAME_CREATED = "GameCreated"
    SEAT_TAKEN = "SeatTaken"
    SEAT_LEFT = "SeatLeft"
    BOT_ADDED = "BotAdded"
    GAME_STARTED = "GameStarted"
    ACTION_TAKEN = "ActionTaken"
    PLAYER_RESIGNED = "PlayerResigned"
    GAME_FINISHED = "GameFinished"
    GAME_ABORTED = "GameAborted"
    TURN_TIMED_OUT = "TurnTimedOut"
    SEAT_HANDED_TO_BOT = "SeatHandedToBot"
    SEAT_RECLAIMED = "SeatReclaimed"
