"""The words of the games: a game's status, a bot's level, the kinds of event its log holds.

Their one home. Plain Python (no Django), so the pure layers (the fold in ``games.records``,
the notation) and the models' choices name the same strings, and pages, the API, analytics and
mail take their words from here rather than from the models. Each word is a ``StrEnum``
member: the string stored in the database, so it compares and hashes as that string.

Each word carries a label for people, and the classes answer ``choices`` and ``values`` as
Django's ``TextChoices`` do, so a model field, a form or a serializer takes them the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import EnumType, StrEnum
from typing import Self, cast


class _LabelledType(EnumType):
    """What Django's ``ChoicesType`` gives a class of choices, without Django."""

    @property
    def choices(cls) -> list[tuple[str, str]]:
        """``(value, label)`` pairs, in order: what a field's ``choices`` takes."""
        return [(word.value, word.label) for word in _words(cls)]

    @property
    def values(cls) -> list[str]:
        return [word.value for word in _words(cls)]


class LabelledWords(StrEnum, metaclass=_LabelledType):
    """Words stored as their value, each with a label for people: ``WAITING = "waiting",
    "Waiting for players"``."""

    label: str

    def __new__(cls, value: str, label: str) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member


def _words(words: _LabelledType) -> Iterable[LabelledWords]:
    return cast("Iterable[LabelledWords]", words)


class Status(LabelledWords):
    """Where a game is in its life (``Game.status``, ``GameRecord.status``)."""

    WAITING = "waiting", "Waiting for players"
    ACTIVE = "active", "In progress"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


class BotLevel(LabelledWords):
    """The bots a seat can be given to (``Seat.bot_level``); ``games.bots`` plays each."""

    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy"
    SEARCH = "search", "Search"
    EXPERT = "expert", "Expert"


class EventKind(LabelledWords):
    """The kinds of event a game's log holds (``GameEvent.kind``)."""

    GAME_CREATED = "GameCreated", "Game Created"
    SEAT_TAKEN = "SeatTaken", "Seat Taken"
    SEAT_LEFT = "SeatLeft", "Seat Left"
    BOT_ADDED = "BotAdded", "Bot Added"
    GAME_STARTED = "GameStarted", "Game Started"
    ACTION_TAKEN = "ActionTaken", "Action Taken"
    PLAYER_RESIGNED = "PlayerResigned", "Player Resigned"
    GAME_FINISHED = "GameFinished", "Game Finished"
    GAME_ABORTED = "GameAborted", "Game Aborted"
    TURN_TIMED_OUT = "TurnTimedOut", "Turn Timed Out"
    SEAT_HANDED_TO_BOT = "SeatHandedToBot", "Seat Handed To Bot"
    SEAT_RECLAIMED = "SeatReclaimed", "Seat Reclaimed"
