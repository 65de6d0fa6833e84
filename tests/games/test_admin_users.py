"""Users in the admin: a player cannot be deleted (their games' events are kept forever), the
admin says so instead of failing, and offers to deactivate and anonymise the account."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from accounts.models import ApiToken, Profile
from games.commands import lobby, play
from games.commands.integrity import read_model_differences
from games.commands.lobby import OpenSeat, UserSeat
from games.models import Game, GameEvent, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def finished_game(alice: User, bob: User) -> Game:
    game = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=3
    )
    play.game_take_action(
        game_id=game.pk,
        action={"type": "take_gems", "gems": ["white", "blue", "green"]},
        expected_version=Game.objects.get(pk=game.pk).version,
        user=alice,
    )
    play.game_resign(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


def event_rows(game: Game) -> list[tuple[object, ...]]:
    return list(
        GameEvent.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "kind", "payload", "actor_id", "seat")
    )


def test_deleting_a_player_is_refused_with_the_reason_and_changes_nothing(
    admin_client: Client, alice: User, finished_game: Game
) -> None:
    url = reverse("admin:auth_user_delete", args=[alice.pk])
    events_before = event_rows(finished_game)

    page = admin_client.get(url)
    posted = admin_client.post(url, {"post": "yes"})

    for response in (page, posted):
        assert response.status_code == 200
        assert "event log keeps forever" in response.text
        assert "Deactivate and anonymise" in response.text
    assert User.objects.filter(pk=alice.pk).exists()
    assert event_rows(finished_game) == events_before


def test_bulk_deleting_players_is_refused_too(
    admin_client: Client, alice: User, bob: User, finished_game: Game
) -> None:
    response = admin_client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "delete_selected", "_selected_action": [alice.pk, bob.pk], "post": "yes"},
    )

    assert response.status_code == 200
    assert "event log keeps forever" in response.text
    assert User.objects.filter(pk__in=[alice.pk, bob.pk]).count() == 2


def test_a_user_who_never_played_can_still_be_deleted(
    admin_client: Client, carol: User, finished_game: Game
) -> None:
    response = admin_client.post(
        reverse("admin:auth_user_delete", args=[carol.pk]), {"post": "yes"}
    )

    assert response.status_code == 302
    assert not User.objects.filter(pk=carol.pk).exists()


def test_a_creator_of_a_waiting_game_counts_as_a_player(admin_client: Client, carol: User) -> None:
    lobby.game_create(variant="splendor", seats=[UserSeat(carol), OpenSeat()], created_by=carol)

    response = admin_client.post(
        reverse("admin:auth_user_delete", args=[carol.pk]), {"post": "yes"}
    )

    assert response.status_code == 200
    assert User.objects.filter(pk=carol.pk).exists()


def test_anonymising_deactivates_and_wipes_the_account_but_keeps_its_games(
    admin_client: Client, alice: User, finished_game: Game
) -> None:
    alice.email = "alice@example.com"
    alice.first_name = "Alice"
    alice.set_password("a-long-enough-passphrase")
    alice.save()
    account_services.token_create(alice, "bot")
    events_before = event_rows(finished_game)
    seats_before = list(Seat.objects.filter(game=finished_game).values_list("user_id", "index"))

    response = admin_client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "anonymise", "_selected_action": [alice.pk]},
        follow=True,
    )

    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.username == f"former-player-{alice.pk}"
    assert (alice.email, alice.first_name, alice.last_name) == ("", "", "")
    assert not alice.is_active
    assert not alice.has_usable_password()
    assert not ApiToken.objects.filter(user=alice, revoked_at__isnull=True).exists()
    profile = Profile.objects.get(user=alice)
    assert (profile.display_name, profile.notify) == ("Former player", Profile.Notify.NONE)
    assert event_rows(finished_game) == events_before
    assert (
        list(Seat.objects.filter(game=finished_game).values_list("user_id", "index"))
        == seats_before
    )
    assert read_model_differences(finished_game) == []


def test_staff_cannot_anonymise_themselves(admin_client: Client, staff: User) -> None:
    admin_client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "anonymise", "_selected_action": [staff.pk]},
    )

    staff.refresh_from_db()
    assert staff.is_active
    assert staff.username == "staff"
