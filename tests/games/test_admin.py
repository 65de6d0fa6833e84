"""The Django admin as a staff superuser: listing, filtering and searching games, a read-only
event log, and the two actions (verify replay, abort) going through the integrity check and the
services."""

from __future__ import annotations

import datetime

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from games.admin import GameAdmin, GameEventAdmin
from games.commands import lobby, play
from games.commands.integrity import read_model_differences
from games.commands.lobby import BotSeat, OpenSeat, UserSeat
from games.models import Game, GameEvent
from games.vocabulary import Status
from tests.games.helpers import assert_consistent, kinds, play_random, reload

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:games_game_changelist"


@pytest.fixture
def admin_client(staff: User) -> Client:  # overrides pytest-django's, with our staff user
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def games(alice: User, bob: User, carol: User, staff: User) -> dict[str, Game]:
    """A waiting, an active, a finished and an aborted game, with different players."""
    waiting = lobby.game_create(
        variant="splendor", seats=[UserSeat(carol), OpenSeat()], created_by=carol
    )
    active = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), BotSeat("greedy")], created_by=alice, seed=1
    )
    finished = lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=alice, seed=2
    )
    play.game_resign(game_id=finished.pk, user=bob)
    aborted = lobby.game_create(
        variant="splendor", seats=[UserSeat(bob), OpenSeat()], created_by=bob
    )
    lobby.game_abort(game_id=aborted.pk, by_user=staff)
    return {
        name: reload(game)
        for name, game in {
            "waiting": waiting,
            "active": active,
            "finished": finished,
            "aborted": aborted,
        }.items()
    }


def listed(client: Client, **params: str) -> set[int]:
    response = client.get(reverse(CHANGELIST), params)
    assert response.status_code == 200
    return {game.pk for game in response.context["cl"].queryset}


def ids(games: dict[str, Game], *names: str) -> set[int]:
    return {games[name].pk for name in names}


def test_the_game_list_shows_every_game_with_its_players(
    admin_client: Client, games: dict[str, Game]
) -> None:
    response = admin_client.get(reverse(CHANGELIST))

    assert response.status_code == 200
    assert {game.pk for game in response.context["cl"].result_list} == ids(games, *games)
    content = response.content.decode()
    assert "alice, Greedy bot" in content
    assert "carol, (open)" in content


@pytest.mark.parametrize("status", ["waiting", "active", "finished", "aborted"])
def test_the_game_list_filters_by_status(
    admin_client: Client, games: dict[str, Game], status: str
) -> None:
    assert listed(admin_client, status__exact=status) == ids(games, status)


def test_the_game_list_filters_by_variant(admin_client: Client, games: dict[str, Game]) -> None:
    assert listed(admin_client, variant__exact="splendor") == ids(games, *games)


def test_the_game_list_filters_by_creation_date(
    admin_client: Client, games: dict[str, Game]
) -> None:
    long_ago = datetime.datetime(2020, 3, 14, 12, tzinfo=datetime.UTC)
    Game.objects.filter(pk=games["finished"].pk).update(created_at=long_ago)
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)

    assert listed(admin_client, created_at__year="2020") == ids(games, "finished")
    assert listed(
        admin_client, created_at__year="2020", created_at__month="3", created_at__day="14"
    ) == ids(games, "finished")
    recent = listed(
        admin_client,
        created_at__gte=str(today - datetime.timedelta(days=7)),
        created_at__lt=str(today + datetime.timedelta(days=1)),
    )
    assert recent == ids(games, "waiting", "active", "aborted")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("alice", ("active", "finished")),
        ("bob", ("finished", "aborted")),
        ("carol", ("waiting",)),
        ("Greedy", ("active",)),
        ("nobody", ()),
    ],
)
def test_the_game_list_searches_by_player_name(
    admin_client: Client, games: dict[str, Game], query: str, expected: tuple[str, ...]
) -> None:
    response = admin_client.get(reverse(CHANGELIST), {"q": query})

    assert response.status_code == 200
    found = [game.pk for game in response.context["cl"].result_list]
    assert sorted(found) == sorted(ids(games, *expected))  # each game once, no duplicates


def test_the_game_page_shows_the_seats_and_a_read_only_event_list(
    admin_client: Client, games: dict[str, Game]
) -> None:
    game = play_random(games["active"], 4)

    response = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))

    assert response.status_code == 200
    content = response.content.decode()
    assert "alice" in content
    assert "Greedy bot" in content
    for kind in ("GameCreated", "SeatTaken", "BotAdded", "GameStarted", "ActionTaken"):
        assert kind in content
    inlines = {formset.opts.model: formset for formset in response.context["inline_admin_formsets"]}
    events = inlines[GameEvent]
    assert len(events.forms) == game.version
    assert not events.has_add_permission
    assert not events.has_change_permission
    assert not events.formset.can_delete
    assert 'name="events-0-kind"' not in content  # shown as text, not as inputs


def test_events_cannot_be_added_changed_or_deleted_in_the_admin(
    admin_client: Client, games: dict[str, Game], staff: User
) -> None:
    event = GameEvent.objects.filter(game=games["active"]).order_by("seq").first()
    assert event is not None
    request = RequestFactory().get("/admin/")
    request.user = staff
    model_admin = admin.site._registry[GameEvent]
    assert isinstance(model_admin, GameEventAdmin)

    assert model_admin.has_add_permission(request) is False
    assert model_admin.has_change_permission(request, event) is False
    assert model_admin.has_delete_permission(request, event) is False

    delete_url = reverse("admin:games_gameevent_delete", args=[event.pk])
    change_url = reverse("admin:games_gameevent_change", args=[event.pk])
    assert admin_client.get(delete_url).status_code == 403
    assert admin_client.post(delete_url, {"post": "yes"}).status_code == 403
    assert admin_client.get(reverse("admin:games_gameevent_add")).status_code == 403
    assert admin_client.post(change_url, {"kind": "GameAborted", "seq": 99}).status_code == 403
    assert admin_client.get(change_url).status_code == 200  # it can still be read
    assert GameEvent.objects.filter(pk=event.pk, seq=event.seq, kind=event.kind).exists()


def test_bulk_deleting_events_from_the_event_list_is_not_offered(
    admin_client: Client, games: dict[str, Game]
) -> None:
    event = GameEvent.objects.filter(game=games["active"]).first()
    assert event is not None
    listing = admin_client.get(reverse("admin:games_gameevent_changelist"))
    assert listing.status_code == 200
    action_form = listing.context.get("action_form")
    offered = [name for name, _ in action_form.fields["action"].choices] if action_form else []
    assert "delete_selected" not in offered

    response = admin_client.post(
        reverse("admin:games_gameevent_changelist"),
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )

    assert response.status_code in (200, 302, 403)
    assert GameEvent.objects.filter(pk=event.pk).exists()


def test_games_cannot_be_added_or_deleted_in_the_admin(
    admin_client: Client, games: dict[str, Game]
) -> None:
    game = games["finished"]

    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_verify_replay_action_reports_success_for_healthy_games(
    admin_client: Client, games: dict[str, Game]
) -> None:
    selected = [games["active"].pk, games["finished"].pk]

    response = admin_client.post(
        reverse(CHANGELIST),
        {"action": "verify_replay", "_selected_action": selected},
        follow=True,
    )

    assert response.status_code == 200
    texts = [str(message) for message in get_messages(response.wsgi_request)]
    assert sorted(texts) == sorted(f"Game {pk}: replay matches." for pk in selected)


def test_the_verify_replay_action_reports_a_game_that_differs(
    admin_client: Client, games: dict[str, Game]
) -> None:
    game = games["active"]
    Game.objects.filter(pk=game.pk).update(acting_seat=1)

    response = admin_client.post(
        reverse(CHANGELIST),
        {"action": "verify_replay", "_selected_action": [game.pk]},
        follow=True,
    )

    (message,) = get_messages(response.wsgi_request)
    assert str(message).startswith(f"Game {game.pk} differs: acting_seat")
    assert message.level_tag == "error"


def test_the_abort_action_appends_a_game_aborted_event(
    admin_client: Client, games: dict[str, Game], staff: User
) -> None:
    game = games["active"]
    version = game.version

    response = admin_client.post(
        reverse(CHANGELIST),
        {"action": "abort_games", "_selected_action": [game.pk]},
        follow=True,
    )

    assert response.status_code == 200
    game = reload(game)
    assert game.status == Status.ABORTED
    assert game.version == version + 1
    assert kinds(game)[-1] == "GameAborted"
    event = GameEvent.objects.get(game=game, seq=game.version)
    assert event.actor_id == staff.pk
    assert event.payload == {"reason": "aborted by staff"}
    texts = [str(message) for message in get_messages(response.wsgi_request)]
    assert texts == [f"Game {game.pk} aborted."]
    assert_consistent(game)


def test_the_abort_action_warns_about_games_already_over_and_changes_nothing(
    admin_client: Client, games: dict[str, Game]
) -> None:
    game = games["finished"]

    response = admin_client.post(
        reverse(CHANGELIST),
        {"action": "abort_games", "_selected_action": [game.pk]},
        follow=True,
    )

    (message,) = get_messages(response.wsgi_request)
    assert message.level_tag == "warning"
    assert "already over" in str(message)
    assert reload(game).version == game.version
    assert reload(game).status == "finished"


def test_saving_a_game_in_the_admin_changes_none_of_its_read_models(
    admin_client: Client, games: dict[str, Game]
) -> None:
    # Every field of a game is a read model of its events: an edit here would drift from the
    # log, so the admin shows them all read-only and a forged POST changes nothing.
    game = games["active"]
    before = Game.objects.filter(pk=game.pk).values().get()

    response = admin_client.post(
        reverse("admin:games_game_change", args=[game.pk]),
        {
            "is_public": "",
            "seats-TOTAL_FORMS": "2",
            "seats-INITIAL_FORMS": "2",
            "seats-MIN_NUM_FORMS": "0",
            "seats-MAX_NUM_FORMS": "1000",
            "events-TOTAL_FORMS": str(game.version),
            "events-INITIAL_FORMS": str(game.version),
            "events-MIN_NUM_FORMS": "0",
            "events-MAX_NUM_FORMS": "1000",
            **{
                f"seats-{i}-id": str(seat.pk) for i, seat in enumerate(game.seats.order_by("index"))
            },
            **{
                f"events-{i}-id": str(event.pk)
                for i, event in enumerate(game.events.order_by("seq"))
            },
        },
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    after = Game.objects.filter(pk=game.pk).values().get()
    assert after["is_public"] is True
    changed = {key for key in before if before[key] != after[key]}
    assert changed <= {"updated_at"}
    assert read_model_differences(reload(game)) == []


def test_the_admin_is_closed_to_users_who_are_not_staff(alice: User) -> None:
    client = Client()
    client.force_login(alice)

    response = client.get(reverse(CHANGELIST))

    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_the_game_admin_declares_the_expected_filters_and_search() -> None:
    assert {"status", "variant", "created_at"} <= set(GameAdmin.list_filter)
    assert "seats__display_name" in GameAdmin.search_fields
