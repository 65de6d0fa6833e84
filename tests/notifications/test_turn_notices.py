"""Turn mail: one per turn, to people only, not while they look at the game, never a hidden card."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import services as account_services
from games import engine
from games.commands import lobby, play
from games.commands.lobby import BotSeat, UserSeat
from games.models import Game, GameEvent
from games.reads import game_view
from games.variants.splendor.mail import card_words
from notifications.models import MailRecord
from notifications.tasks import send_turn_notice
from tests.notifications.conftest import SmtpInbox, client_for, free_port, visit_and_leave
from tests.web.tables import game_at, hidden_card_ids

# Mail goes out after commit, so the tests commit (transaction=True), as requests do.
pytestmark = pytest.mark.django_db(transaction=True)

CARD_IN_MAIL = re.compile(r'data-card="(\d+)"')


def two_player_game(alice: User, bob: User, **options: Any) -> Game:
    """bob invites alice, who moves first: she is not looking at the game when it starts."""
    return lobby.game_create(
        variant="splendor", seats=[UserSeat(alice), UserSeat(bob)], created_by=bob, seed=9,
        **options,
    )  # fmt: skip


def take_three(game: Game, user: User) -> None:
    """``user`` comes back to the game, takes three gems and leaves again."""
    visit_and_leave(user, game)
    game = Game.objects.get(pk=game.pk)
    legal = game_view.game_legal_actions_for_viewer(game, user)
    take = next(action for action in legal if action["type"] == "take_gems")
    play.game_take_action(game_id=game.pk, action=take, expected_version=game.version,
                          user=user)  # fmt: skip


def test_the_player_to_move_gets_one_mail_when_the_game_starts(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)

    [mail] = django_mail.outbox
    assert mail.to == ["alice@example.com"]
    assert f"game #{game.pk}" in mail.subject
    assert mail.alternatives[0][1] == "text/html"


def test_a_notice_task_delivered_twice_sends_one_mail(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    django_mail.outbox.clear()

    outcomes = [send_turn_notice(game.pk, game.version) for _ in range(2)]

    assert outcomes == ["already sent", "already sent"]  # the hook's delivery was the first
    assert django_mail.outbox == []
    assert MailRecord.objects.filter(game=game, kind="turn").count() == 1


def test_the_record_decides_not_a_cache(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    MailRecord.objects.all().delete()  # the record gone, the same task sends again
    django_mail.outbox.clear()

    assert send_turn_notice(game.pk, game.version) == "sent"
    assert send_turn_notice(game.pk, game.version) == "already sent"
    assert len(django_mail.outbox) == 1


def test_each_turn_gets_its_own_mail(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    take_three(game, alice)
    take_three(game, bob)

    assert [mail.to for mail in django_mail.outbox] == [
        ["alice@example.com"],
        ["bob@example.com"],
        ["alice@example.com"],
    ]
    assert "bob took " in django_mail.outbox[2].body


def test_no_mail_for_bots_nor_for_a_late_task(alice: User, bob: User) -> None:
    # Made by bob for alice: a creator gets no mail for the first turn of a game against bots.
    game = lobby.game_create(variant="splendor", seats=[BotSeat("random"), UserSeat(alice)],
                             created_by=bob, seed=4)  # fmt: skip
    game.refresh_from_db()
    # The bot moved first (in-process), then alice got her mail: exactly one.
    assert [mail.to for mail in django_mail.outbox] == [["alice@example.com"]]
    assert send_turn_notice(game.pk, 2) == "not needed"  # the bot's turn, long past


def test_no_mail_while_the_player_has_the_game_open(alice: User, bob: User) -> None:
    game = two_player_game(alice, bob)
    bob_client = client_for(bob)
    bob_client.get(f"/games/{game.pk}/version")  # bob's page polls the game
    django_mail.outbox.clear()

    take_three(game, alice)

    assert django_mail.outbox == []


@pytest.mark.parametrize("setting", ["daily_digest", "none"])
def test_no_turn_mail_unless_the_player_wants_every_turn(
    alice: User, bob: User, setting: str
) -> None:
    account_services.profile_update(alice, notify=setting)

    two_player_game(alice, bob)

    assert django_mail.outbox == []


def test_no_mail_without_an_address(alice: User, bob: User) -> None:
    alice.email = ""
    alice.save()

    two_player_game(alice, bob)

    assert django_mail.outbox == []


def test_the_writer_knows_the_address_so_a_move_to_a_player_without_one_asks_nothing_after(
    alice: User, bob: User
) -> None:
    bob.email = ""
    bob.save()
    game = two_player_game(alice, bob)
    django_mail.outbox.clear()

    with CaptureQueriesContext(connection) as queries:
        take_three(game, alice)

    assert django_mail.outbox == []
    assert queries.captured_queries[-1]["sql"] == "COMMIT"


def test_an_address_added_during_a_game_is_read_with_the_locked_game(
    alice: User, bob: User
) -> None:
    bob.email = ""
    bob.save()
    game = two_player_game(alice, bob)
    take_three(game, alice)
    User.objects.filter(pk=bob.pk).update(email="bob@example.com")  # alice's object is stale
    take_three(game, bob)
    django_mail.outbox.clear()

    take_three(game, alice)

    assert [mail.to for mail in django_mail.outbox] == [["bob@example.com"]]


def test_the_mail_tells_what_the_opponent_did_in_the_game_pages_words(
    alice: User, bob: User
) -> None:
    game = two_player_game(alice, bob)
    take_three(game, alice)

    mail = django_mail.outbox[-1]
    history = Client().get(f"/games/{game.pk}/history/").text
    [sentence] = re.findall(r"alice took [a-z, ]+ and [a-z]+\.", mail.body)
    assert sentence in history


def test_a_mail_shows_no_hidden_card_nor_the_seed(alice: User, bob: User) -> None:
    game = game_at("blind_reserve", UserSeat(alice), UserSeat(bob), creator=alice)
    game.refresh_from_db()
    assert send_turn_notice(game.pk, game.version) == "sent"
    [mail] = django_mail.outbox
    html = mail.alternatives[0][0]
    headers = "\n".join(f"{name}: {value}" for name, value in mail.message().items())
    hidden = hidden_card_ids(game, viewer_seat=0)
    setup = GameEvent.objects.get(game=game, kind="GameStarted").payload

    shown = {int(card) for card in CARD_IN_MAIL.findall(html)}
    assert len(shown) >= 12  # the scan does see the face-up cards
    assert shown.isdisjoint(hidden)
    for text in (mail.body, html, headers, mail.subject):
        for card in hidden:  # every card reads differently, so its words would give it away
            assert card_words(engine.card_json(card, "splendor"))["text"] not in text
        assert "seed" not in text.lower()
        assert setup["salt"] not in text
    assert "reserved unseen" in mail.body  # bob's blind reserve, by its level only


def test_a_mail_server_refusing_connections_keeps_the_move(
    alice: User, bob: User, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nothing listens
    game = two_player_game(alice, bob)

    with caplog.at_level(logging.ERROR, logger="notifications.tasks"):
        take_three(game, alice)

    game.refresh_from_db()
    assert game.acting_seat == 1  # alice's move stands
    assert GameEvent.objects.filter(game=game, kind="ActionTaken").count() == 1
    assert "gave up mailing" in caplog.text
    assert MailRecord.objects.get(game=game, user=bob).gave_up_at is not None


def test_the_smtp_server_gets_text_and_html(alice: User, bob: User, smtp_inbox: SmtpInbox) -> None:
    two_player_game(alice, bob)

    [mail] = smtp_inbox.wait_for(1)
    assert "Play your move" in mail.text
    assert "<a href=" in mail.html
    assert mail.message.get_content_type() == "multipart/alternative"
