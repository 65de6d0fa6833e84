"""Play commands: an action taken for the seat the game waits for, a player resigning.

Each is one transaction through ``games.commands.writer.GameWriter``, as the lobby's
(``games.commands.lobby``): lock, check, append (the fold applies an action, so an illegal one
raises before anything is written), save, queue the follow-ups for after commit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import engine
from games.commands.checks import require_status, seat_of
from games.commands.writer import GameWriter
from games.errors import IdempotencyKeyReused, IllegalMove, NotAllowed, StaleVersion
from games.models import Game, IdempotencyRecord
from games.records.record import GameRecord
from games.vocabulary import EventKind, Status


@dataclass(frozen=True)
class ActionResult:
    """What an accepted action did: the game's new version and the events it appended, the
    seat the game now waits for, and the actor's own legal actions when that is still them
    (returning tokens, choosing a noble), so a client need not ask again."""

    game_id: int
    version: int
    events: tuple[int, ...]
    acting_seat: int | None = None
    actions: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "events": list(self.events),
            "acting_seat": self.acting_seat,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActionResult:
        return cls(
            data["game_id"],
            data["version"],
            tuple(data["events"]),
            data.get("acting_seat"),
            tuple(data.get("actions", ())),
        )


def game_take_action(
    *,
    game_id: int,
    action: Mapping[str, Any],
    expected_version: int,
    user: AbstractBaseUser | None = None,
    as_bot: bool = False,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Apply one action (in the JSON of ``docs/notation.md``) for the seat the game waits for.

    The caller is a seated ``user`` or, with ``as_bot``, the bot in that seat. With an
    ``idempotency_key`` a repeated request gets the first result back and appends nothing.
    """
    if (user is None) == (not as_bot):
        raise ValueError("an action comes from exactly one of a user or the seat's bot")
    fingerprint = ""
    if idempotency_key is not None:
        fingerprint = _fingerprint({"action": action, "expected_version": expected_version})
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        if idempotency_key is not None:
            if user is None:
                raise ValueError("idempotency keys belong to users")
            earlier = _earlier_result(writer.game, user, idempotency_key, fingerprint)
            if earlier is not None:
                return earlier
        record = writer.record
        parsed = _parsed_action(action, record)
        require_status(record, Status.ACTIVE, "The game is not in progress.")
        if expected_version != record.version:
            raise StaleVersion(record.version)
        seat = _require_turn(record, user, as_bot)
        try:
            # The fold applies the action: an illegal one raises before anything is written.
            first = writer.append(EventKind.ACTION_TAKEN, {"action": engine.action_to_json(parsed)},
                                  seat=seat, actor=user)  # fmt: skip
        except engine.IllegalAction as error:
            raise IllegalMove(str(error)) from None
        writer.finish_if_over()
        writer.save()
        result = _result(writer, first, seat, as_bot)
        if idempotency_key is not None and user is not None:
            IdempotencyRecord.objects.create(game=writer.game, user=user, key=idempotency_key,
                                             request_fingerprint=fingerprint,
                                             result=result.to_json())  # fmt: skip
    return result


def _earlier_result(
    game: Game, user: AbstractBaseUser, key: str, fingerprint: str
) -> ActionResult | None:
    """The result of the request ``user`` already made with this idempotency ``key``, if any;
    IdempotencyKeyReused if that request was a different one."""
    earlier = IdempotencyRecord.objects.filter(game=game, user=user, key=key).first()
    if earlier is None:
        return None
    if earlier.request_fingerprint != fingerprint:
        raise IdempotencyKeyReused("This idempotency key was already used for a different request.")
    return ActionResult.from_json(earlier.result)


def _parsed_action(action: Mapping[str, Any], record: GameRecord) -> engine.Action:
    """The action read in the game's variant, whatever the game's state: the API reads a body of
    any game, and one that is not this game's action is refused alike at every version (400,
    not 409 or 412)."""
    try:
        return engine.action_from_json(action, record.variant)
    except engine.MalformedJSON as error:
        raise IllegalMove(str(error)) from None


def _result(writer: GameWriter, first: int, seat: int, as_bot: bool) -> ActionResult:
    """The accepted action's result, from the saved record: its events from ``first`` on."""
    after = writer.record
    acting_seat = after.acting_seat
    actions: tuple[dict[str, Any], ...] = ()
    if acting_seat == seat and not as_bot and after.state is not None:
        actions = tuple(map(engine.action_to_json, engine.legal_actions(after.state)))
    return ActionResult(writer.game.pk, after.version, tuple(range(first, after.version + 1)),
                        acting_seat, actions)  # fmt: skip


def game_resign(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Resign: the game ends at once and the best of the other players win."""
    with transaction.atomic():
        writer = GameWriter.locked(game_id)
        require_status(writer.record, Status.ACTIVE, "Only a game in progress can be resigned.")
        index = seat_of(writer.record, user)
        writer.append(EventKind.PLAYER_RESIGNED, {"seat": index}, seat=index, actor=user)
        writer.finish_if_over()
        writer.save()
    return writer.game


def _require_turn(record: GameRecord, user: AbstractBaseUser | None, as_bot: bool) -> int:
    seat = record.acting_seat
    assert seat is not None
    occupant = record.seats[seat]
    if as_bot:
        if not occupant.bot_level:
            raise NotAllowed("It is not a bot's turn.")
        return seat
    assert user is not None
    if all(taken.user_id != user.pk for taken in record.seats):
        raise NotAllowed("You do not have a seat in this game.")
    if occupant.user_id != user.pk:
        raise NotAllowed(f"It is not your turn: the game waits for {occupant.display_name}.")
    return seat


def _fingerprint(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()
