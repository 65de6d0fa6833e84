"""Selectors and lobby rules the pages and the API rely on beyond the core event store."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from accounts.models import Profile
from games import engine
from games.commands import lobby
from games.commands.lobby import OpenSeat, UserSeat
from games.errors import NotAllowed
from games.models import Game
from games.reads import access, game_lists, game_view, loading
from games.vocabulary import Status
from tests.games.helpers import footprint, play_to_end, reload


def test_a_private_game_refuses_a_player_without_an_invite(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice, is_public=False
    )
    before = footprint(game)

    with pytest.raises(NotAllowed, match="invite"):
        lobby.game_take_seat(game_id=game.pk, user=bob)

    assert footprint(game) == before


def test_a_private_game_seats_an_invited_player(alice: User, bob: User) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice, is_public=False
    )

    lobby.game_take_seat(game_id=game.pk, user=bob, invited=True)

    assert reload(game).status == Status.ACTIVE


def test_a_seat_shows_the_display_name_chosen_in_the_profile(alice: User, bob: User) -> None:
    Profile.objects.create(user=bob, display_name="Bob the Jeweller")

    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice
    )

    names = [seat["display_name"] for seat in game_view.game_view_for_viewer(game, alice)["seats"]]
    assert names == ["alice", "Bob the Jeweller"]


def test_the_version_is_visible_to_everyone_for_a_public_game(started_game: Game) -> None:
    assert access.game_version_for_viewer(started_game.pk, AnonymousUser()) == (
        started_game.version
    )


def test_the_version_of_a_private_game_is_hidden_from_outsiders(
    alice: User, bob: User, carol: User
) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice,
        is_public=False,
    )  # fmt: skip

    assert access.game_version_for_viewer(game.pk, carol) is None
    assert access.game_version_for_viewer(game.pk, AnonymousUser()) is None
    assert access.game_version_for_viewer(game.pk, bob) == game.version


def test_a_finished_game_shows_every_reserved_card_to_everyone(started_game: Game) -> None:
    game = play_to_end(started_game, seed=3)
    assert game.status == Status.FINISHED

    players = game_view.game_view_for_viewer(game, AnonymousUser())["state"]["players"]

    assert all("hidden" not in card for player in players for card in player["reserved"])


def test_the_payment_rule_for_views_lets_one_gold_stand_in_for_each_colour(
    started_game: Game,
) -> None:
    state = loading.game_state(started_game)
    assert state is not None
    view = engine.view(state, 0)
    card = view["board"][0][0]
    # Exactly the cost in coloured tokens, plus one gold: pay it all in colour, or let the
    # gold replace one token of any one colour of the cost.
    player = {**view["players"][0], "tokens": {**card["cost"], "gold": 1}}

    options = engine.payment_options_in_view(player, card)

    assert options[0] == card["cost"]
    assert len(options) == 1 + len(card["cost"])
    for colour in card["cost"]:
        with_gold = {**card["cost"], colour: card["cost"][colour] - 1, "gold": 1}
        assert {name: n for name, n in with_gold.items() if n} in options


def test_a_guest_has_no_games_of_their_own(started_game: Game) -> None:
    assert list(game_lists.game_list_for_viewer(AnonymousUser())) == [started_game]
    assert list(game_lists.game_list_for_viewer(AnonymousUser(), mine=True)) == []
    assert list(game_lists.game_list_for_viewer(AnonymousUser(), my_turn=True)) == []


def test_the_creator_still_sees_a_private_game_after_leaving_its_seat(
    alice: User, bob: User
) -> None:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice,
        is_public=False,
    )  # fmt: skip
    lobby.game_leave_seat(game_id=game.pk, user=alice)

    assert access.can_view(reload(game), alice)
    assert not access.can_view(reload(game), bob)
    assert list(game_lists.game_list_for_viewer(alice, mine=True)) == [game]
    assert access.game_version_for_viewer(game.pk, alice) == reload(game).version
