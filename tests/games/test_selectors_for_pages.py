"""Selectors and lobby rules the pages and the API rely on beyond the core event store."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from accounts.models import Profile
from games import engine, selectors, services
from games.engine.splendor.gems import COLOUR_NAMES
from games.errors import NotAllowed
from games.models import Game
from games.services import OpenSeat, UserSeat
from tests.games.helpers import footprint, play_to_end, reload


def test_a_private_game_refuses_a_player_without_an_invite(alice: User, bob: User) -> None:
    game = services.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice, is_public=False
    )
    before = footprint(game)

    with pytest.raises(NotAllowed, match="invite"):
        services.game_take_seat(game_id=game.pk, user=bob)

    assert footprint(game) == before


def test_a_private_game_seats_an_invited_player(alice: User, bob: User) -> None:
    game = services.game_create(
        variant="splendor", seats=[UserSeat(alice), OpenSeat()], created_by=alice, is_public=False
    )

    services.game_take_seat(game_id=game.pk, user=bob, invited=True)

    assert reload(game).status == Game.Status.ACTIVE


def test_a_seat_shows_the_display_name_chosen_in_the_profile(alice: User, bob: User) -> None:
    Profile.objects.create(user=bob, display_name="Bob the Jeweller")

    game = services.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice
    )

    names = [seat["display_name"] for seat in selectors.game_view_for_viewer(game, alice)["seats"]]
    assert names == ["alice", "Bob the Jeweller"]


def test_the_version_is_visible_to_everyone_for_a_public_game(started_game: Game) -> None:
    assert selectors.game_version_for_viewer(started_game.pk, AnonymousUser()) == (
        started_game.version
    )


def test_the_version_of_a_private_game_is_hidden_from_outsiders(
    alice: User, bob: User, carol: User
) -> None:
    game = services.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice,
        is_public=False,
    )  # fmt: skip

    assert selectors.game_version_for_viewer(game.pk, carol) is None
    assert selectors.game_version_for_viewer(game.pk, AnonymousUser()) is None
    assert selectors.game_version_for_viewer(game.pk, bob) == game.version


def test_payment_options_are_offered_only_to_the_player_to_act(
    started_game: Game, alice: User, bob: User
) -> None:
    state = selectors.game_state(started_game)
    assert state is not None
    free_card = next(iter(state.board[0]))
    assert free_card is not None

    # At the start nobody holds a token, so no card can be bought by anyone.
    assert selectors.game_payment_options_for_viewer(started_game, alice, free_card) == []
    assert selectors.game_payment_options_for_viewer(started_game, bob, free_card) == []


def test_payment_options_list_every_exact_payment_of_an_affordable_card(
    started_game: Game, alice: User
) -> None:
    game = started_game
    for _ in range(40):  # play on until alice, to act, can buy something
        game = reload(game)
        actions = selectors.game_legal_actions_for_viewer(game, alice)
        buys = [action for action in actions if action["type"] == "buy_card"]
        if buys:
            break
        acting = game.seats.get(index=game.acting_seat).user
        options = selectors.game_legal_actions_for_viewer(game, acting)
        choice = next((a for a in options if a["type"] == "take_gems"), options[0])
        services.game_take_action(
            game_id=game.pk, user=acting, action=choice, expected_version=game.version
        )
    else:
        pytest.fail("alice never got to buy a card")
    card = buys[0]["card"]
    state = selectors.game_state(game)
    assert state is not None

    options = selectors.game_payment_options_for_viewer(game, alice, card)

    expected = [
        {name: count for name, count in zip(COLOUR_NAMES, payment, strict=True) if count}
        for payment in engine.payment_options(state, card)
    ]
    assert options
    assert options == expected


def test_a_finished_game_shows_every_reserved_card_to_everyone(started_game: Game) -> None:
    game = play_to_end(started_game, seed=3)
    assert game.status == Game.Status.FINISHED

    players = selectors.game_view_for_viewer(game, AnonymousUser())["state"]["players"]

    assert all("hidden" not in card for player in players for card in player["reserved"])


def test_the_payment_rule_for_views_lets_one_gold_stand_in_for_each_colour(
    started_game: Game,
) -> None:
    state = selectors.game_state(started_game)
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
