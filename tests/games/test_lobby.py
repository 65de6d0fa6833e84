"""The lobby through the services: creating games, taking and leaving seats, bots, the start,
resigning and aborting. Every change is an event, and the read models always match a replay."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.commands import lobby, play
from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from games.errors import GameNotFound, InvalidRequest, NotAllowed
from games.models import Game, GameEvent, Seat
from games.vocabulary import Status
from tests.games.helpers import assert_consistent, footprint, kinds, reload

pytestmark = pytest.mark.django_db


def seat_rows(game: Game) -> list[tuple[int, int | None, str, str]]:
    return [
        (seat.index, seat.user_id, seat.bot_level, seat.display_name)
        for seat in Seat.objects.filter(game=game).order_by("index")
    ]


def open_game(creator: User, seats: int = 2, **kwargs: object) -> Game:
    return lobby.game_create(
        variant="splendor", seats=[OpenSeat()] * seats, created_by=creator, **kwargs
    )


# Creating ------------------------------------------------------------------------------------


def test_a_game_is_created_with_open_user_and_bot_seats_as_events(alice: User) -> None:
    game = lobby.game_create(
        variant="splendor",
        seats=[UserSeat(alice), OpenSeat(), BotSeat("random")],
        created_by=alice,
    )

    game = reload(game)
    assert game.status == Status.WAITING
    assert (game.seat_count, game.version, game.created_by_id) == (3, 3, alice.pk)
    assert kinds(game) == ["GameCreated", "SeatTaken", "BotAdded"]
    assert seat_rows(game) == [
        (0, alice.pk, "", "alice"),
        (1, None, "", ""),
        (2, None, "random", "Random bot"),
    ]
    assert game.snapshot is None
    assert game.commitment == ""
    assert game.acting_seat is None
    assert_consistent(game)


def test_a_game_whose_seats_are_all_filled_at_creation_starts_at_once(
    alice: User, bob: User
) -> None:
    game = lobby.game_create(
        variant="splendor",
        seats=[UserSeat(alice), BotSeat("greedy"), UserSeat(bob)],
        created_by=alice,
        seed=5,
    )

    game = reload(game)
    assert game.status == Status.ACTIVE
    assert kinds(game) == ["GameCreated", "SeatTaken", "BotAdded", "SeatTaken", "GameStarted"]
    assert game.version == 5
    assert game.snapshot_version == 5
    assert game.acting_seat == 0
    assert game.started_at is not None
    assert len(game.commitment) == 64
    assert_consistent(game)


@pytest.mark.parametrize("count", [0, 1, 5])
def test_a_game_with_fewer_than_two_or_more_than_four_seats_is_refused(
    alice: User, count: int
) -> None:
    with pytest.raises(InvalidRequest, match="2 to 4 seats"):
        lobby.game_create(variant="splendor", seats=[OpenSeat()] * count, created_by=alice)

    assert not Game.objects.exists()
    assert not GameEvent.objects.exists()


def test_the_same_user_cannot_be_given_two_seats_at_creation(alice: User) -> None:
    with pytest.raises(InvalidRequest, match="only one seat"):
        lobby.game_create(
            variant="splendor", seats=[UserSeat(alice), UserSeat(alice)], created_by=alice
        )

    assert not Game.objects.exists()


def test_an_unknown_bot_level_is_refused_at_creation(alice: User) -> None:
    with pytest.raises(InvalidRequest, match="Unknown bot level 'genius'"):
        lobby.game_create(
            variant="splendor", seats=[UserSeat(alice), BotSeat("genius")], created_by=alice
        )

    assert not Game.objects.exists()


def test_an_unknown_variant_is_refused(alice: User) -> None:
    with pytest.raises(InvalidRequest, match="Unknown variant"):
        lobby.game_create(variant="chess", seats=[OpenSeat()] * 2, created_by=alice)

    assert not Game.objects.exists()


# Seats ---------------------------------------------------------------------------------------


def test_taking_the_last_open_seat_starts_the_game(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice
    )

    lobby.game_take_seat(game_id=game.pk, user=bob, seed=11)

    game = reload(game)
    assert game.status == Status.ACTIVE
    assert kinds(game) == ["GameCreated", "SeatTaken", "SeatTaken", "GameStarted"]
    assert seat_rows(game)[1] == (1, bob.pk, "", "bob")
    assert_consistent(game)


def test_a_player_can_take_a_chosen_seat(alice: User, bob: User) -> None:
    game = open_game(alice, seats=3)

    lobby.game_take_seat(game_id=game.pk, user=bob, seat=2)

    assert seat_rows(game)[2] == (2, bob.pk, "", "bob")
    event = GameEvent.objects.get(game=game, seq=2)
    assert (event.kind, event.seat, event.actor_id) == ("SeatTaken", 2, bob.pk)
    assert event.payload == {"seat": 2, "user": bob.pk, "display_name": "bob"}
    assert_consistent(game)


def test_a_seat_already_taken_cannot_be_taken_again(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat(), OpenSeat()], created_by=alice
    )
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="Seat 0 is already taken"):
        lobby.game_take_seat(game_id=game.pk, user=bob, seat=0)

    assert footprint(game) == before


def test_a_seat_number_the_game_does_not_have_is_refused(alice: User, bob: User) -> None:
    game = open_game(alice)
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="no seat 7"):
        lobby.game_take_seat(game_id=game.pk, user=bob, seat=7)

    assert footprint(game) == before


def test_the_same_user_cannot_take_a_second_seat(alice: User) -> None:
    game = open_game(alice, seats=3)
    lobby.game_take_seat(game_id=game.pk, user=alice)
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="already have a seat"):
        lobby.game_take_seat(game_id=game.pk, user=alice)

    assert footprint(game) == before


def test_a_seat_cannot_be_taken_once_the_game_has_started(started_game: Game, carol: User) -> None:
    before = footprint(started_game)

    with pytest.raises(InvalidRequest, match="has not started"):
        lobby.game_take_seat(game_id=started_game.pk, user=carol)

    assert footprint(started_game) == before


def test_a_seat_in_an_unknown_game_cannot_be_taken(alice: User) -> None:
    with pytest.raises(GameNotFound, match="no game 999999"):
        lobby.game_take_seat(game_id=999999, user=alice)


def test_a_player_can_leave_a_game_before_it_starts_and_the_seat_opens_again(
    alice: User, bob: User, carol: User
) -> None:
    game = open_game(alice, seats=3)
    lobby.game_take_seat(game_id=game.pk, user=bob)

    lobby.game_leave_seat(game_id=game.pk, user=bob)

    assert kinds(game)[-1] == "SeatLeft"
    assert seat_rows(game)[0] == (0, None, "", "")
    lobby.game_take_seat(game_id=game.pk, user=carol)
    assert seat_rows(game)[0] == (0, carol.pk, "", "carol")
    assert_consistent(game)


def test_leaving_a_game_one_is_not_seated_in_is_refused(alice: User, bob: User) -> None:
    game = open_game(alice)
    before = footprint(game)

    with pytest.raises(NotAllowed, match="do not have a seat"):
        lobby.game_leave_seat(game_id=game.pk, user=bob)

    assert footprint(game) == before


def test_leaving_a_started_game_is_refused_in_favour_of_resigning(
    started_game: Game, alice: User
) -> None:
    before = footprint(started_game)

    with pytest.raises(InvalidRequest, match="resign instead"):
        lobby.game_leave_seat(game_id=started_game.pk, user=alice)

    assert footprint(started_game) == before


# Bots ----------------------------------------------------------------------------------------


def test_the_creator_can_add_a_bot_without_being_seated(alice: User, bob: User) -> None:
    game = open_game(alice)

    lobby.game_add_bot(game_id=game.pk, level="search", by_user=alice, seat=1)

    assert seat_rows(game)[1] == (1, None, "search", "Search bot")
    event = GameEvent.objects.get(game=game, seq=2)
    assert (event.kind, event.actor_id) == ("BotAdded", alice.pk)
    assert_consistent(game)


def test_a_seated_player_who_did_not_create_the_game_can_add_a_bot(alice: User, bob: User) -> None:
    game = open_game(alice, seats=3)
    lobby.game_take_seat(game_id=game.pk, user=bob)

    lobby.game_add_bot(game_id=game.pk, level="greedy", by_user=bob)

    assert [row[2] for row in seat_rows(game)] == ["", "greedy", ""]
    assert_consistent(game)


def test_adding_the_last_bot_starts_the_game(alice: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice
    )

    lobby.game_add_bot(game_id=game.pk, level="random", by_user=alice, seed=3)

    assert reload(game).status == Status.ACTIVE
    assert kinds(game)[-2:] == ["BotAdded", "GameStarted"]
    assert_consistent(game)


def test_someone_neither_creator_nor_seated_cannot_add_a_bot(alice: User, carol: User) -> None:
    game = open_game(alice)
    before = footprint(game)

    with pytest.raises(NotAllowed, match="creator or a seated player"):
        lobby.game_add_bot(game_id=game.pk, level="random", by_user=carol)

    assert footprint(game) == before


def test_an_unknown_bot_level_is_refused_when_adding_a_bot(alice: User) -> None:
    game = open_game(alice)
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="Unknown bot level 'genius'"):
        lobby.game_add_bot(game_id=game.pk, level="genius", by_user=alice)

    assert footprint(game) == before


def test_a_bot_cannot_be_put_in_a_taken_seat(alice: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat(), OpenSeat()], created_by=alice
    )
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="already taken"):
        lobby.game_add_bot(game_id=game.pk, level="random", by_user=alice, seat=0)

    assert footprint(game) == before


def test_a_bot_cannot_be_added_to_a_started_game(started_game: Game, alice: User) -> None:
    before = footprint(started_game)

    with pytest.raises(InvalidRequest, match="before the start"):
        lobby.game_add_bot(game_id=started_game.pk, level="random", by_user=alice)

    assert footprint(started_game) == before


# Starting ------------------------------------------------------------------------------------


def test_a_game_with_an_open_seat_cannot_be_started(alice: User) -> None:
    game = open_game(alice)
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="Every seat must be filled"):
        lobby.game_start(game_id=game.pk, by_user=alice)

    assert footprint(game) == before


def test_a_started_game_cannot_be_started_again(started_game: Game, alice: User) -> None:
    before = footprint(started_game)

    with pytest.raises(InvalidRequest, match="already started"):
        lobby.game_start(game_id=started_game.pk, by_user=alice)

    assert footprint(started_game) == before


def test_only_the_creator_a_player_or_staff_can_start_a_game(alice: User, carol: User) -> None:
    game = open_game(alice)
    before = footprint(game)

    with pytest.raises(NotAllowed, match="creator"):
        lobby.game_start(game_id=game.pk, by_user=carol)

    assert footprint(game) == before


# Resigning -----------------------------------------------------------------------------------


def test_resigning_ends_a_two_player_game_with_the_other_player_winning(
    started_game: Game, alice: User
) -> None:
    play.game_resign(game_id=started_game.pk, user=alice)

    game = reload(started_game)
    assert game.status == Status.FINISHED
    assert game.finished_at is not None
    assert kinds(game)[-2:] == ["PlayerResigned", "GameFinished"]
    assert game.result["winners"] == [1]
    assert game.result["resigned"] == [0]
    assert game.result["decided_by"] == "resignation"
    assert game.acting_seat is None
    assert_consistent(game)


def test_resigning_a_three_player_game_lets_the_remaining_players_share_the_win(
    alice: User, bob: User, carol: User
) -> None:
    game = lobby.game_create(
        variant="splendor",
        seats=[UserSeat(alice), UserSeat(bob), UserSeat(carol)],
        created_by=alice,
        seed=1,
    )

    play.game_resign(game_id=game.pk, user=bob)

    game = reload(game)
    assert game.status == Status.FINISHED
    assert game.result["winners"] == [0, 2]
    assert_consistent(game)


def test_resigning_is_refused_to_someone_not_seated(started_game: Game, carol: User) -> None:
    before = footprint(started_game)

    with pytest.raises(NotAllowed):
        play.game_resign(game_id=started_game.pk, user=carol)

    assert footprint(started_game) == before


def test_a_game_that_has_not_started_cannot_be_resigned(alice: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice
    )
    before = footprint(game)

    with pytest.raises(InvalidRequest, match="in progress"):
        play.game_resign(game_id=game.pk, user=alice)

    assert footprint(game) == before


def test_a_finished_game_cannot_be_resigned_again(started_game: Game, alice: User) -> None:
    play.game_resign(game_id=started_game.pk, user=alice)
    before = footprint(started_game)

    with pytest.raises(InvalidRequest):
        play.game_resign(game_id=started_game.pk, user=alice)

    assert footprint(started_game) == before


# Aborting ------------------------------------------------------------------------------------


def test_staff_can_abort_a_game_in_progress(started_game: Game, staff: User) -> None:
    lobby.game_abort(game_id=started_game.pk, by_user=staff, reason="cheating")

    game = reload(started_game)
    assert game.status == Status.ABORTED
    assert game.finished_at is not None
    assert game.result == {"aborted": True, "reason": "cheating"}
    event = GameEvent.objects.get(game=game, seq=game.version)
    assert (event.kind, event.actor_id, event.payload) == (
        "GameAborted",
        staff.pk,
        {"reason": "cheating"},
    )
    assert_consistent(game)


def test_staff_can_abort_a_game_that_has_not_started(alice: User, staff: User) -> None:
    game = open_game(alice)

    lobby.game_abort(game_id=game.pk, by_user=staff)

    assert reload(game).status == Status.ABORTED
    assert_consistent(game)


def test_the_creator_can_abort_a_game_before_it_starts(alice: User) -> None:
    game = open_game(alice)

    lobby.game_abort(game_id=game.pk, by_user=alice)

    assert reload(game).status == Status.ABORTED
    assert kinds(game)[-1] == "GameAborted"
    assert_consistent(game)


def test_the_creator_cannot_abort_a_game_once_it_has_started(
    started_game: Game, alice: User
) -> None:
    before = footprint(started_game)

    with pytest.raises(NotAllowed, match="before the start"):
        lobby.game_abort(game_id=started_game.pk, by_user=alice)

    assert footprint(started_game) == before


@pytest.mark.parametrize("started", [False, True], ids=["waiting", "active"])
def test_a_player_who_is_not_the_creator_cannot_abort(
    alice: User, bob: User, started: bool
) -> None:
    seats = (
        [UserSeat(alice), UserSeat(bob)] if started else [UserSeat(alice), OpenSeat(), OpenSeat()]
    )
    game = lobby.game_create(variant="splendor", seats=seats, created_by=alice)
    if not started:
        lobby.game_take_seat(game_id=game.pk, user=bob)
    assert reload(game).status == (Status.ACTIVE if started else Status.WAITING)
    before = footprint(game)

    with pytest.raises(NotAllowed):
        lobby.game_abort(game_id=game.pk, by_user=bob)
    with pytest.raises(NotAllowed):
        lobby.game_abort(game_id=game.pk, by_user=None)

    assert footprint(game) == before


def test_a_game_that_is_over_cannot_be_aborted(
    started_game: Game, alice: User, staff: User
) -> None:
    play.game_resign(game_id=started_game.pk, user=alice)
    before = footprint(started_game)

    with pytest.raises(InvalidRequest, match="already over"):
        lobby.game_abort(game_id=started_game.pk, by_user=staff)

    assert footprint(started_game) == before
