"""Follow-ups run after a successful commit, with the game's id and new version.

Other parts of the service (bot turns, notifications, live pages, statistics) register here, from
their apps' ``ready``, instead of the commands importing them; ``games.commands.writer`` queues the
registered hooks with ``transaction.on_commit`` when it saves a game, and only those whose condition
the committed game meets, so a hook with nothing to do costs no query.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.records.record import GameRecord
from games.vocabulary import Status

_hooks: list[Callable[[int, int], None]] = []

Condition = Callable[[GameRecord], bool]
"""A test of the game as the writer just committed it, asked in this process: no query."""


@dataclass(frozen=True)
class WhenABotMovesNext:
    """An after-commit hook run only after commits that leave the game waiting for a bot.

    The writer knows who moves next and who sits at the table, so the hook need not ask the
    database: it is called ``hook(game_id, version, with_player=...)``, ``with_player`` telling
    whether a player has a seat in the game.
    """

    hook: Callable[..., None]

    def __call__(self, game_id: int, version: int, *, with_player: bool) -> None:
        self.hook(game_id, version, with_player=with_player)


@dataclass(frozen=True)
class WhenAPersonMovesNext:
    """An after-commit hook run only after commits that leave the game waiting for a person
    (``waits_for_a_person``), called ``hook(game_id, version, has_email=...)``.

    ``has_email`` tells whether that player has an email address, as the writer read it with
    the locked game (or from the user who acted): None when it does not know. So a hook that
    would mail them need not ask the database first.
    """

    hook: Callable[..., None]

    def __call__(self, game_id: int, version: int, *, has_email: bool | None) -> None:
        self.hook(game_id, version, has_email=has_email)


@dataclass(frozen=True)
class OnlyWhen:
    """An after-commit hook run only after commits whose game passes ``condition``.

    A hook that would otherwise ask the database whether it has work (a finished game, a seat
    the bot plays) is told by the writer instead, and costs nothing after the other commits.
    """

    hook: Callable[[int, int], None]
    condition: Condition

    def __call__(self, game_id: int, version: int) -> None:
        self.hook(game_id, version)


def register_after_commit(
    hook: Callable[..., None],
    *,
    only_when_a_bot_moves_next: bool = False,
    only_when_a_person_moves_next: bool = False,
    when: Condition | None = None,
) -> None:
    """Run ``hook(game_id, version)`` after each commit that appended events to a game.

    With ``when``, only after those whose game, as committed, passes ``when(record)``. With
    ``only_when_a_bot_moves_next``, only after those that leave it waiting for a bot, as
    ``hook(game_id, version, with_player=...)`` (see ``WhenABotMovesNext``); with
    ``only_when_a_person_moves_next``, for a person, as
    ``hook(game_id, version, has_email=...)`` (see ``WhenAPersonMovesNext``).
    """
    entry: Callable[..., None] = hook
    if only_when_a_bot_moves_next:
        entry = WhenABotMovesNext(hook)
    elif only_when_a_person_moves_next:
        entry = WhenAPersonMovesNext(hook)
    elif when is not None:
        entry = OnlyWhen(hook, when)
    if entry not in _hooks:
        _hooks.append(entry)


def waits_for_a_person(record: GameRecord) -> bool:
    """The game waits for a person's move (not a bot's, not a seat handed to the bot)."""
    seat = record.acting_seat
    return seat is not None and record.seats[seat].is_played_by_a_person


def waits_for_a_seat_handed_to_the_bot(record: GameRecord) -> bool:
    seat = record.acting_seat
    return seat is not None and record.seats[seat].is_away


def is_finished(record: GameRecord) -> bool:
    return record.status == Status.FINISHED
