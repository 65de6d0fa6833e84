"""Follow-ups run after a successful commit, each told what the commit left (``Committed``).

Other parts of the service (bot turns, notifications, live pages, statistics) register here, from
their apps' ``ready``, instead of the commands importing them. Every hook is one ``Hook``: what to
run, and the condition on the game as committed under which to run it. ``games.commands.writer``
calls ``queue_hooks`` when it saves a game: each hook whose condition the game meets is queued
with ``transaction.on_commit``, so a hook with nothing to do costs no query, and each is called
the same way, ``hook.run(committed)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from games.records.record import GameRecord
from games.vocabulary import Status


@dataclass(frozen=True)
class Committed:
    """What a commit left a game with, as the writer knows it without a query."""

    game_id: int
    version: int
    """The game's version after the commit."""
    has_a_player: bool
    """A player (not only bots) has a seat in the game."""
    mover_has_email: bool | None
    """Whether the person the game now waits for has an email address, as the writer read it
    with the locked game (or from the user who acted): None when it does not know, or when the
    game waits for no person (``waits_for_a_person``). So a hook that would mail them need not
    ask the database first."""


Condition = Callable[[GameRecord], bool]
"""A test of the game as the writer just committed it, asked in this process: no query."""


def always(record: GameRecord) -> bool:
    return True


@dataclass(frozen=True)
class Hook:
    """Run ``run(committed)`` after each commit that appended events to a game whose record,
    as committed, passes ``when``."""

    run: Callable[[Committed], None]
    when: Condition = always


_hooks: list[Hook] = []


def register_after_commit(run: Callable[[Committed], None], *, when: Condition = always) -> None:
    """Run ``run(committed)`` after each commit that appended events to a game, only after those
    whose game, as committed, passes ``when(record)``. Registering a hook again keeps one."""
    hook = Hook(run, when)
    if hook not in _hooks:
        _hooks.append(hook)


def queue_hooks(record: GameRecord, committed: Committed) -> None:
    """Queue, for after the current transaction commits, each hook whose condition ``record``
    (the game as it will be committed) passes."""
    for hook in _hooks:
        if hook.when(record):
            # robust: a follow-up that fails (say, the broker is down) must not turn a
            # committed move into an error; the sweeper re-queues what was lost.
            transaction.on_commit(functools.partial(hook.run, committed), robust=True)


def bot_moves_next(record: GameRecord) -> bool:
    """The game waits for a bot's move (a seat handed to the bot is not a bot's seat)."""
    return record.bot_moves_next


def waits_for_a_person(record: GameRecord) -> bool:
    """The game waits for a person's move (not a bot's, not a seat handed to the bot)."""
    seat = record.acting_seat
    return seat is not None and record.seats[seat].is_played_by_a_person


def waits_for_a_seat_handed_to_the_bot(record: GameRecord) -> bool:
    seat = record.acting_seat
    return seat is not None and record.seats[seat].is_away


def is_finished(record: GameRecord) -> bool:
    return record.status == Status.FINISHED
