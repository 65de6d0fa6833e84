"""What commands require of a game before they write: its status, the requester's seat.

A refusal raises a ``games.errors.GameError``, before anything is appended.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from games.errors import InvalidRequest, NotAllowed
from games.records.record import GameRecord


def require_status(record: GameRecord, status: str, message: str) -> None:
    if record.status != status:
        raise InvalidRequest(message)


def seat_of(record: GameRecord, user: AbstractBaseUser) -> int:
    for index, seat in enumerate(record.seats):
        if seat.user_id == user.pk:
            return index
    raise NotAllowed("You do not have a seat in this game.")
