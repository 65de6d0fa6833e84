"""Reads for the lists of games: the lobby's and the API's, "My games", the public finished
games, a player's games.

The lobby and the API list the games a viewer may see, by status, variant, their own or waiting
for their move, each as a summary (``game_summaries``). The lists of past games share one filter
set, as the API does: status, variant, player count, opponent (a human, or a bot of some level)
and a date range on the game's creation. Each of their rows says, for the player the list is
about, their result (won, lost, shared, resigned, aborted), their score and the winner's, who
won and how (the result in full, ``games.reads.results``, and in words), and the game's length
in rounds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games import engine
from games.models import Game, Seat
from games.reads import loading, results
from games.reads.access import Viewer, involves, visible_to
from games.reads.game_view import seat_json, seats_json
from games.variants.table_common import round_number
from games.vocabulary import BotLevel, Status


def game_list_for_viewer(
    viewer: Viewer,
    *,
    status: str | None = None,
    variant: str | None = None,
    mine: bool = False,
    my_turn: bool = False,
) -> QuerySet[Game]:
    """Games ``viewer`` may see (public ones, their own, all for staff), newest first."""
    games = Game.objects.defer("snapshot", "options").prefetch_related("seats__user__profile")
    games = games.filter(visible_to(viewer))
    if (mine or my_turn) and (viewer is None or not viewer.is_authenticated):
        return games.none()  # a guest has no games of their own
    if status:
        games = games.filter(status=status)
    if variant:
        games = games.filter(variant=variant)
    if mine:
        games = games.filter(involves(viewer))
    if my_turn:
        acting = Seat.objects.filter(
            game=OuterRef("pk"), user_id=viewer.pk, index=OuterRef("acting_seat")
        )
        games = games.filter(Exists(acting), status=Status.ACTIVE)
    return games.order_by("-created_at", "-id")


def game_summaries(games: Iterable[Game], viewer: Viewer) -> list[dict[str, Any]]:
    """Each game as a list shows it: status and seats, no board and no hands."""
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    games = list(games)
    players = _final_players([game.pk for game in games if game.status == Status.FINISHED])
    return [_summary(game, viewer_id, players.get(game.pk, [])) for game in games]


def _final_players(game_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The public players of each finished game's last position, by game: the lists load
    games without their snapshot, so these are read in one query."""
    if not game_ids:
        return {}
    games = Game.objects.filter(pk__in=game_ids).only(
        "id", "variant", "version", "snapshot", "snapshot_version"
    )
    return {game.pk: results.public_players(game) for game in games}


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _summary(game: Game, viewer_id: int | None, players: list[dict[str, Any]]) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.index)
    viewer_seat = next(
        (seat.index for seat in seats if viewer_id is not None and seat.user_id == viewer_id),
        None,
    )
    is_running = game.status == Status.ACTIVE
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "version": game.version,
        "is_public": game.is_public,
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": seats_json(seats),
        "acting_seat": game.acting_seat,
        "viewer_seat": viewer_seat,
        "updated_at": game.updated_at.isoformat(),
        "turn_deadline": _iso(game.turn_deadline) if is_running else None,
        "last_move_at": _iso(game.turn_started_at if is_running else game.finished_at),
        "is_my_turn": is_running and viewer_seat is not None and viewer_seat == game.acting_seat,
        "result": results.result_in_full(game.variant, game.result, seats, players),
    }


# Past games: "My games", the public finished games, a player's games ------------------------

OPPONENTS = ("human", *BotLevel.values)


@dataclass(frozen=True)
class HistoryFilters:
    status: str = ""
    variant: str = ""
    players: int | None = None
    opponent: str = ""
    since: date | None = None
    until: date | None = None


def my_games(
    viewer: AbstractBaseUser, filters: HistoryFilters, *, waiting_for_me: bool = False
) -> QuerySet[Game]:
    """Every game ``viewer`` sat in (or created, such as their imports): those waiting for
    their move first, then newest first. ``waiting_for_me`` keeps only the former."""
    games = Game.objects.filter(involves(viewer)).annotate(
        is_waiting_for_me=Exists(_my_turn(viewer))
    )
    if waiting_for_me:
        games = games.filter(is_waiting_for_me=True)
    return _filtered(games, filters, me=viewer).order_by("-is_waiting_for_me", "-created_at", "-id")


def _my_turn(viewer: AbstractBaseUser) -> QuerySet[Seat]:
    """The viewer's seat in a running game, when it is the seat the game waits for."""
    return Seat.objects.filter(
        game=OuterRef("pk"),
        game__status=Status.ACTIVE,
        user_id=viewer.pk,
        index=OuterRef("acting_seat"),
    )


def finished_public_games(filters: HistoryFilters, *, player: Any = None) -> QuerySet[Game]:
    """Finished public games (of ``player`` only, if given), newest first."""
    games = Game.objects.filter(is_public=True, status=Status.FINISHED)
    if player is not None:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=player)))
    return _filtered(games, replace(filters, status=""), me=player)


def visible_games(viewer: Viewer, games: QuerySet[Game]) -> QuerySet[Game]:
    return games.filter(visible_to(viewer))


def _filtered(games: QuerySet[Game], filters: HistoryFilters, *, me: Any) -> QuerySet[Game]:
    if filters.status:
        games = games.filter(status=filters.status)
    if filters.variant:
        games = games.filter(variant=filters.variant)
    if filters.players:
        games = games.filter(seat_count=filters.players)
    if filters.opponent:
        games = games.filter(_against(filters.opponent, me))
    if filters.since:
        games = games.filter(created_at__gte=_start_of(filters.since))
    if filters.until:
        games = games.filter(created_at__lt=_start_of(filters.until + timedelta(days=1)))
    return games.prefetch_related("seats").order_by("-created_at", "-id")


def _against(opponent: str, me: Any) -> Q:
    """Games where ``me`` met a human or a bot of that level; without ``me``, games between
    humans only, or with a bot of that level."""
    seats = Seat.objects.filter(game=OuterRef("pk"))
    if opponent != "human":
        return Q(Exists(seats.filter(bot_level=opponent)))
    if me is None:
        return ~Q(Exists(seats.exclude(bot_level="")))
    return Q(Exists(seats.exclude(user=me).filter(bot_level="")))


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def history_rows(games: Iterable[Game], player: Any) -> list[dict[str, Any]]:
    """Each game as the lists show it, from ``player``'s side (None: nobody's side)."""
    player_id = getattr(player, "pk", None)
    return [_row(game, player_id) for game in games]


def _row(game: Game, player_id: int | None) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.index)
    names = [seat.display_name or "open seat" for seat in seats]
    my_seat = next((seat.index for seat in seats if player_id and seat.user_id == player_id), None)
    result = results.finished_result(game, seats) or {}
    winners = result.get("winners") or []
    points = result.get("points") or []
    return {
        "id": game.pk,
        "variant": game.variant,
        "variant_name": game.get_variant_display(),
        "status": game.status,
        "is_public": game.is_public,
        "origin": game.origin,
        "players": names,
        "seats": [seat_json(seat) for seat in seats],
        "my_seat": my_seat,
        "my_result": my_result(game.status, result, my_seat),
        "my_score": points[my_seat] if my_seat is not None and points else None,
        "winner_score": points[winners[0]] if winners and points else None,
        "winners": [names[seat] for seat in winners],
        "result": result or None,
        "ending": results.ending_in_words(game.variant, result, names),
        "rounds": _rounds(game),
        "date": (game.finished_at or game.started_at or game.created_at).isoformat(),
    }


def my_game_rows(games: Iterable[Game], player: AbstractBaseUser) -> list[dict[str, Any]]:
    """The rows of My games: each as ``history_rows`` has it, and while it runs whose turn it
    is, when the move is due, when the last move was made and the player's score so far."""
    games = list(games)
    rows = []
    for game, row in zip(games, history_rows(games, player), strict=True):
        is_running = game.status == Status.ACTIVE
        acting = game.acting_seat if is_running else None
        row["is_my_turn"] = acting is not None and acting == row["my_seat"]
        row["acting_name"] = row["players"][acting] if acting is not None else None
        row["turn_deadline"] = game.turn_deadline if is_running else None
        row["last_move_at"] = game.turn_started_at if is_running else game.finished_at
        if is_running and row["my_seat"] is not None:
            row["my_score"] = _points_so_far(game, row["my_seat"])
        rows.append(row)
    return rows


def _points_so_far(game: Game, seat: int) -> int | None:
    """A seat's points in a running game: public (cards and nobles lie face up)."""
    state = loading.game_state(game)
    if state is None:
        return None
    return int(engine.view(state, None)["players"][seat]["points"])


def my_result(status: str, result: Mapping[str, Any], seat: int | None) -> str:
    """won, lost, shared, resigned, aborted; "" while the game runs or without a seat."""
    if status == Status.ABORTED:
        return "aborted"
    if status != Status.FINISHED or seat is None:
        return ""
    if seat in result.get("resigned", ()):
        return "resigned"
    winners = result.get("winners", [])
    if seat in winners:
        return "shared" if len(winners) > 1 else "won"
    return "lost"


def _rounds(game: Game) -> int | None:
    """The game's round as its page shows it (the last one played, once it is over)."""
    if game.snapshot is None:
        return None
    is_over = game.status != Status.ACTIVE
    return round_number(game.snapshot["turn"], len(game.snapshot["players"]), is_over=is_over)


def known_variants() -> tuple[str, ...]:
    return engine.VARIANTS
